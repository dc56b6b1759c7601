import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_TOKEN } from '../../src/config.js';
import { eventually } from '../support/eventually.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const lines: string[] = [];
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(line) });
});
afterAll(() => app.close());

describe('request logs', () => {
  it('write one JSON line per request with method, path, status, duration and account, and never the key', async () => {
    await app.http('GET', '/usage/bases?probe=1');
    await app.http('GET', '/usage/bases', { key: null, headers: { authorization: 'Bearer sk_thisIsNotAValidKeyButLooksLikeOne123456' } });
    app.running.sandbox!.faults.update({ errorRate: 1, errorStatus: 503 });
    expect((await app.http('GET', '/airtable/bases')).status).toBe(502);
    app.running.sandbox!.faults.reset();
    const entries = lines.map((line) => JSON.parse(line));
    const ok = entries.find((e) => e.req?.url === '/usage/bases?probe=1');
    expect(ok).toMatchObject({ level: 30, req: { method: 'GET' }, res: { statusCode: 200 }, accountId: app.accountId });
    expect(ok.responseTime).toEqual(expect.any(Number));
    expect(entries.some((e) => e.res?.statusCode === 401)).toBe(true);
    const all = lines.join('\n');
    expect(all).not.toContain(app.apiKey);
    expect(all).not.toContain('sk_thisIsNotAValidKey');
    expect(all).not.toMatch(/authorization/i);
    expect(all).not.toMatch(/"stack"|\bat .+\.(ts|js):\d+/);
    expect(all).not.toContain(DEFAULT_SANDBOX_TOKEN);
    const upstream = entries.find((e) => e.code === 'upstream_error');
    expect(upstream).toMatchObject({ level: 40, status: 503, type: 'RETRIABLE_ERROR', path: '/v0/meta/bases' });
  });

  it('logs a request the client gave up on as aborted, at warn', async () => {
    app.running.sandbox!.faults.update({ latencyMs: 1_000 });
    try {
      // A client that gives up closes its connection (fetch's abort leaves the socket to the pool's keep-alive, and
      // the app's close would then wait for it).
      await new Promise<void>((resolve) => {
        const request = httpRequest(`${app.url}/airtable/bases?probe=aborted`, {
          headers: { authorization: `Bearer ${app.apiKey}` },
          agent: false,
        });
        request.on('error', () => resolve());
        request.setTimeout(100, () => request.destroy(new Error('gave up')));
        request.end();
      });
      const entry = await eventually(
        async () => lines.map((line) => JSON.parse(line)).find((e) => e.req?.url === '/airtable/bases?probe=aborted'),
        (found) => found !== undefined,
      );
      expect(entry).toMatchObject({ level: 40, msg: 'request aborted', accountId: app.accountId });
    } finally {
      app.running.sandbox!.faults.reset();
    }
  });
});
