import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** node:http rather than fetch: fetch refuses some of what these tests send (huge headers, raw bytes). */
function raw(method: string, path: string, options: { headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.url}${path}`, { method, headers: options.headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const auth = () => ({ authorization: `Bearer ${app.apiKey}` });

describe('requests the HTTP parser refuses', () => {
  it('answers headers over 16 KiB with 431 and a JSON error body', async () => {
    const res = await raw('GET', '/usage/bases', { headers: { ...auth(), 'x-padding': 'a'.repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual({
      code: 'invalid_request',
      message: 'The request line or headers are too long (at most 16 KiB together)',
    });
  });

  it('answers a URL over 16 KiB the same way', async () => {
    const res = await raw('GET', `/usage/bases?x=${'a'.repeat(20_000)}`, { headers: auth() });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.text).code).toBe('invalid_request');
  });
});

describe('request bodies', () => {
  it('refuses invalid UTF-8 in a JSON body with 400 and stores nothing', async () => {
    const body = Buffer.concat([Buffer.from('{"baseId":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const res = await raw('POST', '/usage/bases', { headers: { ...auth(), 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ message: 'Request body is not valid UTF-8', code: 'invalid_request' });
    expect((await app.http('GET', '/usage/bases')).body.bases).toEqual([]);
  });

  it('still takes multi-byte UTF-8', async () => {
    const bases = (await app.http('GET', '/airtable/bases')).body.bases as Array<{ id: string; name: string }>;
    const catalog = bases.find((b) => b.name === DEMO_BASES.catalog)!;
    const res = await app.http('POST', '/usage/bases', { body: { baseId: catalog.id, baseName: 'Katalog – Übersicht 📦' } });
    expect(res.status).toBe(201);
    expect(res.body.base.baseName).toBe('Katalog – Übersicht 📦');
    await app.http('DELETE', `/usage/bases/${res.body.base.id}`);
  });

  it('says what is wrong with a JSON body that is valid JSON but not an object', async () => {
    for (const text of ['null', '"text"', '42']) {
      const res = await app.http('POST', '/usage/bases', { raw: text });
      expect(res.status, text).toBe(400);
      expect(res.body, text).toEqual({ message: 'The request body must be a JSON object', code: 'invalid_request' });
    }
  });
});

describe('/graphql answers in its own shape before GraphQL runs', () => {
  it('413 for a body over 1 MiB, as errors[] with payload_too_large', async () => {
    const body = JSON.stringify({ query: `{ __typename } #${'x'.repeat(1024 * 1024)}` });
    const res = await raw('POST', '/graphql', { headers: { ...auth(), 'content-type': 'application/json' }, body });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toEqual({
      errors: [{ message: 'Request body exceeds 1 MiB', extensions: { code: 'payload_too_large' } }],
    });
  });

  it('400 for malformed JSON, as errors[] with invalid_request', async () => {
    const res = await raw('POST', '/graphql', { headers: { ...auth(), 'content-type': 'application/json' }, body: '{"query": ' });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      errors: [{ message: 'Malformed JSON in request body', extensions: { code: 'invalid_request' } }],
    });
  });

  it('400 for JSON that is not an object and for bytes that are not UTF-8, as REST says it', async () => {
    const headers = { ...auth(), 'content-type': 'application/json; charset=utf-8' };
    const text = await raw('POST', '/graphql', { headers, body: ' "{ __typename }"' });
    expect(text.status).toBe(400);
    expect(JSON.parse(text.text)).toEqual({
      errors: [{ message: 'The request body must be a JSON object', extensions: { code: 'invalid_request' } }],
    });
    const latin1 = Buffer.concat([Buffer.from('{"query":"{ __typename }","operationName":"'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const bytes = await raw('POST', '/graphql', { headers, body: latin1 });
    expect(bytes.status).toBe(400);
    expect(JSON.parse(bytes.text)).toEqual({
      errors: [{ message: 'Request body is not valid UTF-8', extensions: { code: 'invalid_request' } }],
    });
  });

  it('reads a body in the other forms express.json() takes: charset spelled otherwise, gzip', async () => {
    const query = JSON.stringify({ query: '{ __typename }' });
    const answered = { data: { __typename: 'Query' } };
    for (const type of ['application/json', 'Application/JSON; charset="UTF-8"', 'application/json;charset=utf-8']) {
      const res = await raw('POST', '/graphql', { headers: { ...auth(), 'content-type': type }, body: query });
      expect(JSON.parse(res.text), type).toEqual(answered);
    }
    const gzipped = await raw('POST', '/graphql', {
      headers: { ...auth(), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(query),
    });
    expect(JSON.parse(gzipped.text)).toEqual(answered);
  });
});

describe('URLs', () => {
  it('says that a path is not valid percent-encoding', async () => {
    const res = await app.http('GET', '/usage/bases/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The URL path is not valid percent-encoding', code: 'invalid_request' });
  });
});

describe('OPTIONS', () => {
  it('answers 204 with the allowed methods in Allow and no body', async () => {
    const res = await raw('OPTIONS', '/usage/bases');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.headers['content-type']).toBeUndefined();
    expect(res.text).toBe('');
    const one = await raw('OPTIONS', '/usage/bases/00000000-0000-4000-8000-000000000000');
    expect(one.status).toBe(204);
    expect(one.headers.allow).toBe('DELETE, PATCH');
    const monitoring = await raw('OPTIONS', '/monitoring-config/00000000-0000-4000-8000-000000000000');
    expect(monitoring.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
  });

  it('answers 404 for a path nothing serves', async () => {
    const res = await raw('OPTIONS', '/no/such/route');
    expect(res.status).toBe(404);
  });
});
