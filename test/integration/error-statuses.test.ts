import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteSpec } from '../../src/rest/http/route.js';
import { allRoutes, buildOpenApiDocument } from '../../src/rest/openapi.js';
import { assertMatchesOpenApi } from '../support/openapi-validator.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const label = (route: RouteSpec) => `${route.method.toUpperCase()} ${route.path}`;
const withParams = (path: string, value: string) => path.replace(/\{\w+\}/g, value);
const withParamRoutes = allRoutes.filter((route) => route.path.includes('{'));

interface Answer {
  status: number;
  body: unknown;
}

/** fetch() refuses a body on GET, and these are the bodies an edge must answer on every method. */
function send(method: string, path: string, headers: Record<string, string>, body: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${app.url}${path}`,
      { method, headers: { authorization: `Bearer ${app.apiKey}`, 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function expectDocumentedError(method: string, path: string, answer: Answer, status: number, code: string) {
  expect(answer).toEqual({ status, body: { message: expect.any(String), code } });
  assertMatchesOpenApi(method, path, answer.status, answer.body);
}

describe('every operation documents the failures it can answer', () => {
  // DELETE /webhooks/{webhookId}, retry, rotate-secret, DELETE /usage/bases/{id}, snapshots/latest, schedule, run,
  // GET and DELETE /monitoring-config/{id} once answered these without listing 400.
  for (const route of withParamRoutes) {
    it(`${label(route)}: 400 for a path parameter that cannot be an id, or is not valid percent-encoding`, async () => {
      const method = route.method.toUpperCase();
      const body = route.body ? {} : undefined;
      for (const value of ['a'.repeat(65), '%E0%A4%A']) {
        const path = withParams(route.path, value);
        const res = await app.http(method, path, { body });
        expect(res.status).toBe(400);
        expect(res.body.code).toBe('invalid_request');
      }
    });
  }

  for (const route of allRoutes) {
    const method = route.method.toUpperCase();
    const path = withParams(route.path, '00000000-0000-4000-8000-000000000000');

    it(`${label(route)}: 400 for a body that cannot be read, 413 for one over 1 MiB`, async () => {
      // The upstream's pings are read as raw bytes, so malformed JSON reaches their MAC check; an unknown encoding does not.
      const unreadable =
        route.rateLimited === false
          ? await send(method, path, { 'content-type': 'application/json', 'content-encoding': 'bogus' }, '{}')
          : await send(method, path, { 'content-type': 'application/json' }, '{"unclosed":');
      await expectDocumentedError(method, path, unreadable, 400, 'invalid_request');

      const huge = await send(method, path, { 'content-type': 'application/json' }, Buffer.alloc(1024 * 1024 + 1, 0x20));
      await expectDocumentedError(method, path, huge, 413, 'payload_too_large');
    });
  }

  it('408 and 431, which the HTTP parser answers before any operation is known, are listed on every operation', async () => {
    const answer = await send('GET', '/usage/bases', { 'x-padding': 'a'.repeat(20_000) }, '');
    expect(answer.status).toBe(431);
    const operations = Object.values(buildOpenApiDocument().paths).flatMap((byMethod) => Object.values(byMethod));
    for (const operation of operations) expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['408', '431']));
  });

  it('a public operation answers 429 once the key sending it spent its budget', async () => {
    const limited = await startTestApp({ API_RATE_LIMIT_PER_MINUTE: '1' });
    try {
      expect((await limited.http('GET', '/healthz')).status).toBe(200);
      const refused = await limited.http('GET', '/healthz');
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
    } finally {
      await limited.close();
    }
  });
});
