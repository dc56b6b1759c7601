import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const GiB = 1024 ** 3;

describe('GET/PUT /usage/bases/{id}/limits', () => {
  it('starts without limits, takes a plan, numbers of its own and thresholds, and clears', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    const path = `/usage/bases/${base.id}/limits`;
    expect((await app.http('GET', path)).body).toEqual({
      limits: { plan: null, recordLimit: null, storageLimitBytes: null, thresholds: [80, 95, 100] },
    });

    const team = await app.http('PUT', path, { body: { plan: 'team' } });
    expect(team.status).toBe(200);
    expect(team.body).toEqual({ limits: { plan: 'team', recordLimit: 50_000, storageLimitBytes: 20 * GiB, thresholds: [80, 95, 100] } });

    // A number of its own makes the plan custom; the other limit and the thresholds stay.
    const custom = await app.http('PUT', path, { body: { recordLimit: 1_234, thresholds: [95, 50] } });
    expect(custom.body).toEqual({ limits: { plan: 'custom', recordLimit: 1_234, storageLimitBytes: 20 * GiB, thresholds: [50, 95] } });
    expect((await app.http('GET', path)).body).toEqual(custom.body);

    const cleared = await app.http('PUT', path, { body: { plan: null } });
    expect(cleared.body).toEqual({ limits: { plan: null, recordLimit: null, storageLimitBytes: null, thresholds: [50, 95] } });
    // The base's own shape is the interface's, unchanged.
    const listed = (await app.http('GET', '/usage/bases')).body.bases.find((b: { id: string }) => b.id === base.id);
    expect(Object.keys(listed).filter((key) => /limit|plan|threshold/i.test(key))).toEqual([]);
    expect((await app.http('DELETE', `/usage/bases/${base.id}`)).status).toBe(204);
    expect((await app.http('GET', path)).status).toBe(404);
  });

  it('refuses what does not make sense with 400, and another account’s base with 404', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    const path = `/usage/bases/${base.id}/limits`;
    for (const body of [
      { plan: 'gold' },
      { plan: 'team', recordLimit: 10 },
      { thresholds: [] },
      { thresholds: [80, 80] },
      { thresholds: [0] },
      { recordLimit: 0 },
      { storageLimitBytes: 1.5 },
      { planName: 'team' },
    ]) {
      const res = await app.http('PUT', path, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    }
    expect((await app.other.http('GET', path)).status).toBe(404);
    expect((await app.other.http('PUT', path, { body: { plan: 'free' } })).status).toBe(404);
    expect((await app.http('GET', path)).body.limits.plan).toBeNull();
  });
});
