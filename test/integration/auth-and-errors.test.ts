import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttp } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('authentication', () => {
  it('accepts the Bearer form and the bare form', async () => {
    expect((await app.http('GET', '/usage/bases')).status).toBe(200);
    const bare = await app.http('GET', '/usage/bases', { key: null, headers: { authorization: app.apiKey } });
    expect(bare.status).toBe(200);
  });

  it.each([
    ['missing', undefined],
    ['malformed', 'Bearer not-a-key'],
    ['unknown', 'Bearer sk_0000000000000000000000000000000000000000000'],
    ['wrong scheme', `Basic c2tfeHh4`],
  ])('answers 401 unauthorized for a %s key', async (_name, header) => {
    const res = await app.http('GET', '/usage/bases', { key: null, headers: header ? { authorization: header } : {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: expect.any(String), code: 'unauthorized' });
  });

  it('answers 401 once a key is revoked, and other keys of the account keep working', async () => {
    const { account, apiKey } = await app.running.services.accounts.create('revocation');
    const second = await app.running.services.accounts.createKey(account.id);
    const http = createHttp(app.url);
    expect((await http('GET', '/usage/bases', { key: apiKey })).status).toBe(200);
    const [first] = await app.running.services.accounts.listKeys(account.id);
    await app.running.services.accounts.revokeKey(first.id);
    expect((await http('GET', '/usage/bases', { key: apiKey })).status).toBe(401);
    expect((await http('GET', '/usage/bases', { key: second.apiKey })).status).toBe(200);
  });

  it('keeps health checks and the OpenAPI document public', async () => {
    const http = createHttp(app.url);
    expect((await http('GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await http('GET', '/readyz')).body).toEqual({ status: 'ready' });
    expect((await http('GET', '/openapi.json')).body.openapi).toMatch(/^3\.0\./);
  });
});

describe('error rendering', () => {
  it('answers unknown routes with a JSON 404', async () => {
    const res = await app.http('GET', '/no/such/route');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({ message: 'Route not found', code: 'not_found' });
  });

  it('answers malformed JSON with 400 invalid_request and no parser internals', async () => {
    const res = await app.http('POST', '/usage/bases', { raw: '{"baseId": ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Malformed JSON in request body', code: 'invalid_request' });
  });

  it('answers a body over 1 MiB with 413 payload_too_large', async () => {
    const res = await app.http('POST', '/usage/bases', { body: { baseId: 'x'.repeat(1024 * 1024 + 10) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: expect.any(String), code: 'payload_too_large' });
  });

  it('answers a body that is not JSON with 400', async () => {
    const res = await app.http('POST', '/usage/bases', { raw: 'baseId=1', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('never shows stack traces, SQL or key material in error bodies', async () => {
    const responses = await Promise.all([
      app.http('POST', '/usage/bases', { raw: '{' }),
      app.http('PATCH', '/usage/bases/x', { body: { nope: 1 } }),
      app.http('GET', '/usage/bases/x/snapshots?from=2026-02-30'),
    ]);
    for (const res of responses) {
      expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
      expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+|SELECT|INSERT|sqlite|sk_/i);
    }
  });
});

describe('request budget per account', () => {
  it('answers 429 rate_limited with Retry-After once an account spends its budget', async () => {
    const limited = await startTestApp({ API_RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.http('GET', '/usage/bases')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const res = await limited.http('GET', '/usage/bases');
      expect(res.body).toEqual({ message: expect.any(String), code: 'rate_limited' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      // the budget is per account: another key of the same account is refused too, another account's key is not
      const { apiKey } = await limited.running.services.accounts.createKey(limited.accountId);
      expect((await createHttp(limited.url, apiKey)('GET', '/usage/bases')).status).toBe(429);
      expect((await limited.other.http('GET', '/usage/bases')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
