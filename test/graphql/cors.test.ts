import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const APP_ORIGIN = 'https://app.example.com';
const QUERY = JSON.stringify({ query: '{ viewer { restId } }' });

/** A browser's preflight for a POST with the key and JSON, without the key (browsers never send it on a preflight). */
const preflight = (url: string, origin: string, method = 'POST') =>
  fetch(url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
  });

const postQuery = (app: TestApp, origin: string, key: string | null = app.apiKey) =>
  fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: QUERY,
  });

const corsHeadersOf = (res: Response) => [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));
const varyOf = (res: Response) => (res.headers.get('vary') ?? '').split(/\s*,\s*/).map((name) => name.toLowerCase());

describe('CORS_ORIGINS unset', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('adds no CORS header to any answer, and answers OPTIONS on /graphql before authentication', async () => {
    const options = await preflight(`${app.url}/graphql`, APP_ORIGIN);
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, POST');
    expect(corsHeadersOf(options)).toEqual([]);

    const post = await postQuery(app, APP_ORIGIN);
    expect(post.status).toBe(200);
    expect(corsHeadersOf(post)).toEqual([]);
    expect(varyOf(post)).not.toContain('origin');
    const rest = await fetch(`${app.url}/usage/bases`, { headers: { origin: APP_ORIGIN, authorization: `Bearer ${app.apiKey}` } });
    expect(rest.status).toBe(200);
    expect(corsHeadersOf(rest)).toEqual([]);
  });
});

describe('listed origins', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ CORS_ORIGINS: `${APP_ORIGIN}, HTTP://LOCALHOST:5173/` });
  });
  afterAll(() => app.close());

  it('answers a preflight to /graphql before authentication: the origin echoed, credentials, methods, headers', async () => {
    const res = await preflight(`${app.url}/graphql`, APP_ORIGIN);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(',');
    for (const header of [
      'authorization',
      'content-type',
      'apollo-require-preflight',
      'x-apollo-operation-name',
      'x-csrf-token',
      'if-none-match',
    ]) {
      expect(allowed).toContain(header);
    }
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(varyOf(res)).toContain('origin');
  });

  it('answers a REST preflight with the methods of that path, and normalises listed origins', async () => {
    const res = await preflight(`${app.url}/connection`, 'http://localhost:5173', 'PUT');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-methods')).toBe('DELETE, GET, HEAD, PUT');
  });

  it('lets the listed origin read answers, errors included, and the headers clients need', async () => {
    const ok = await postQuery(app, APP_ORIGIN);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(ok.headers.get('access-control-allow-credentials')).toBe('true');
    const exposed = ok.headers.get('access-control-expose-headers')!.toLowerCase().split(',');
    expect(exposed).toEqual(expect.arrayContaining(['etag', 'retry-after', 'ratelimit', 'ratelimit-policy', 'location']));
    // Apollo's own headers leave CORS's Vary: Origin in place.
    expect(varyOf(ok)).toContain('origin');

    const refused = await postQuery(app, APP_ORIGIN, null);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
  });

  it('gives an origin not in the list no CORS header at all, but says the answer depends on Origin', async () => {
    const evil = 'https://evil.example.com';
    const options = await preflight(`${app.url}/graphql`, evil);
    expect(corsHeadersOf(options)).toEqual([]);
    const post = await postQuery(app, evil);
    expect(corsHeadersOf(post)).toEqual([]);
    expect(varyOf(post)).toContain('origin');
    // A near miss is a miss: another scheme, port or subdomain.
    for (const near of ['http://app.example.com', 'https://app.example.com:8443', 'https://x.app.example.com']) {
      expect(corsHeadersOf(await postQuery(app, near))).toEqual([]);
    }
  });
});

describe('CORS_ORIGINS=* (requests without credentials from anywhere)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ CORS_ORIGINS: `*,${APP_ORIGIN}` });
  });
  afterAll(() => app.close());

  it('answers any origin with `*` and never with credentials; a listed origin still gets them', async () => {
    const options = await preflight(`${app.url}/graphql`, 'https://anyone.example.org');
    expect(options.status).toBe(204);
    expect(options.headers.get('access-control-allow-origin')).toBe('*');
    expect(options.headers.get('access-control-allow-credentials')).toBeNull();
    expect(options.headers.get('access-control-allow-methods')).toBe('GET, POST');
    const post = await postQuery(app, 'https://anyone.example.org');
    expect(post.headers.get('access-control-allow-origin')).toBe('*');
    expect(post.headers.get('access-control-allow-credentials')).toBeNull();
    expect(varyOf(post)).toContain('origin');

    const listed = await postQuery(app, APP_ORIGIN);
    expect(listed.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
  });
});

describe('CORS_ORIGINS validation', () => {
  it('refuses entries that are not origins, naming each one', () => {
    let problems: string[] = [];
    try {
      loadConfig({
        CORS_ORIGINS:
          'https://ok.example.com, https://app.example.com/path, *.example.com, https://*.example.com, null, ftp://x.example.com',
      });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^CORS_ORIGINS: /);
    for (const entry of ['https://app.example.com/path', '*.example.com', 'https://*.example.com', 'null', 'ftp://x.example.com']) {
      expect(problems[0]).toContain(`"${entry}"`);
    }
    expect(problems[0]).not.toContain('ok.example.com');
  });

  it('keeps origins as browsers send them, and none when unset or empty', () => {
    expect(loadConfig({ CORS_ORIGINS: 'HTTPS://App.Example.com:443/, http://127.0.0.1:8080,*' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://127.0.0.1:8080',
      '*',
    ]);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
  });
});
