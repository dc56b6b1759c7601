import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A base's limits over HTTP: the shape, a 400, a 404. Their rules: test/services/usage-limits.service.test.ts. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const GiB = 1024 ** 3;

describe('GET/PUT /usage/bases/{id}/limits', () => {
  it('answers the limits in the documented shape, and leaves the base’s own shape as it was', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    const path = `/usage/bases/${base.id}/limits`;
    const start = await app.http('GET', path);
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ limits: { plan: null, recordLimit: null, storageLimitBytes: null, thresholds: [80, 95, 100] } });
    const team = await app.http('PUT', path, { body: { plan: 'team' } });
    expect(team.status).toBe(200);
    expect(team.body).toEqual({ limits: { plan: 'team', recordLimit: 50_000, storageLimitBytes: 20 * GiB, thresholds: [80, 95, 100] } });
    expect((await app.http('GET', path)).body).toEqual(team.body);
    // The base's own shape is the interface's, unchanged.
    const listed = (await app.http('GET', '/usage/bases')).body.bases.find((b: { id: string }) => b.id === base.id);
    expect(Object.keys(listed).filter((key) => /limit|plan|threshold/i.test(key))).toEqual([]);
  });

  it('answers a refused body with 400, and another account’s base with 404', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    const path = `/usage/bases/${base.id}/limits`;
    const refused = await app.http('PUT', path, { body: { thresholds: [80, 80] } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: expect.stringMatching(/^body\.thresholds: /), code: 'invalid_request' });
    const res = await app.other.http('PUT', path, { body: { plan: 'free' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await app.other.http('GET', path)).status).toBe(404);
  });
});
