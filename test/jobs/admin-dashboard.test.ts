import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ADMIN_TOKEN = 'admin-token-for-tests-0123456789';
let app: TestApp;
let withoutToken: TestApp;
beforeAll(async () => {
  app = await startTestApp({ ADMIN_TOKEN });
  withoutToken = await startTestApp();
});
afterAll(async () => {
  await app.close();
  await withoutToken.close();
});

describe('the job dashboard at /admin/jobs', () => {
  it('asks for the admin token, by Basic auth for browsers or as a bearer token', async () => {
    const refused = await fetch(`${app.url}/admin/jobs/`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await refused.json()).toEqual({ message: 'Admin token required', code: 'unauthorized' });
    const wrong = await fetch(`${app.url}/admin/jobs/`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const page = await fetch(`${app.url}/admin/jobs/`, {
      headers: { authorization: `Basic ${Buffer.from(`ops:${ADMIN_TOKEN}`).toString('base64')}` },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
  });

  it('lists the usage jobs through agendash’s API on our SQLite backend', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog, { scheduledHour: 6 });
    const res = await fetch(`${app.url}/admin/jobs/api?job=usage.count`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      jobs: Array<{ job: { data: { usageBaseId: string } } }>;
      overview: Array<{ displayName: string }>;
    };
    const jobs = body.jobs.map((entry: { job: { data: { usageBaseId: string } } }) => entry.job.data.usageBaseId);
    expect(jobs).toContain(base.id);
    expect(body.overview.some((o: { displayName: string }) => o.displayName === 'usage.count')).toBe(true);
  });

  it('is not there without ADMIN_TOKEN', async () => {
    const res = await fetch(`${withoutToken.url}/admin/jobs/`);
    expect(res.status).toBe(404);
  });
});
