import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** GET /usage/api-calls over HTTP: its shape, the month in the query, a 400. The ledger's rules: test/services/api-call-ledger.service.test.ts. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('GET /usage/api-calls', () => {
  it('answers this month in the documented shape, and a month given in the query', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    expect((await app.http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
    const res = await app.http('GET', '/usage/api-calls');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      month: new Date().toISOString().slice(0, 7),
      total: expect.any(Number),
      projected: expect.any(Number),
      byPurpose: { count: expect.any(Number), audit: expect.any(Number), webhooks: expect.any(Number), helpers: expect.any(Number) },
      byBase: expect.arrayContaining([{ baseId: base.baseId, calls: expect.any(Number) }]),
    });
    expect(res.body.byPurpose.count).toBeGreaterThan(0);
    const past = await app.http('GET', '/usage/api-calls?month=2020-02');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({
      month: '2020-02',
      total: 0,
      projected: 0,
      byPurpose: { count: 0, audit: 0, webhooks: 0, helpers: 0 },
      byBase: [],
    });
  });

  it('answers a malformed month with 400 invalid_request', async () => {
    const res = await app.http('GET', '/usage/api-calls?month=2026-13');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.stringMatching(/^query\.month: /), code: 'invalid_request' });
  });
});
