import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** GET/PUT /usage/bases/{id}/counting over HTTP: the shape, a 400, a 404. The rules: test/services/count-only-when-changed.service.test.ts. */
describe('GET/PUT /usage/bases/{id}/counting', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('answers the setting and the days’ costs in the documented shape', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    const path = `/usage/bases/${base.id}/counting`;
    const start = await app.http('GET', path);
    expect(start.status).toBe(200);
    expect(start.body).toEqual({ counting: { countOnlyWhenChanged: false, auditWatched: false, days: [], savedCalls: 0 } });
    const full = await app.http('POST', `/usage/bases/${base.id}/run`);
    const put = await app.http('PUT', path, { body: { countOnlyWhenChanged: true } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      counting: {
        countOnlyWhenChanged: true,
        auditWatched: false,
        days: [{ date: full.body.snapshotDate, apiCalls: expect.any(Number), carriedOver: false, fromMirror: false }],
        savedCalls: 0,
      },
    });
    expect((await app.http('GET', path)).body).toEqual(put.body);
  });

  it('answers a refused body with 400, and another account’s base with 404', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    const path = `/usage/bases/${base.id}/counting`;
    const refused = await app.http('PUT', path, { body: { countOnlyWhenChanged: 'yes' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: expect.stringMatching(/^body\.countOnlyWhenChanged: /), code: 'invalid_request' });
    for (const res of [await app.other.http('GET', path), await app.other.http('PUT', path, { body: { countOnlyWhenChanged: true } })]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: expect.any(String), code: 'not_found' });
    }
  });
});
