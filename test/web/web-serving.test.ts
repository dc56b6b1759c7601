import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../web/build.mjs';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
let script: string;
let chunks: string[];
beforeAll(async () => {
  ({ script, chunks } = await buildWeb());
  app = await startTestApp();
});
afterAll(() => app.close());

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const get = (path: string, accept = BROWSER_ACCEPT, method = 'GET') => fetch(`${app.url}${path}`, { method, headers: { accept } });

describe('serving the web application', () => {
  it('answers every page path a browser opens with the application, its bundle cached for good', async () => {
    for (const path of ['/', '/sign-in', '/settings', '/bases/abc', '/set-password?token=abc']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await res.text()).toContain(`<script type="module" src="/assets/${script}"></script>`);
    }
    // The sign-in page's script is small; the pages behind sign-in come in chunks of their own, named in the page.
    expect(chunks.length).toBeGreaterThan(0);
    const signedIn = chunks.find((chunk) => chunk.startsWith('signed-in-'))!;
    expect(await (await fetch(`${app.url}/assets/${script}`)).text()).toContain('Sign in to basewatch');
    const bundle = await fetch(`${app.url}/assets/${signedIn}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(bundle.headers.get('content-encoding')).toBe('gzip');
    const unzipped = await bundle.text();
    expect(unzipped.length).toBeGreaterThan(10_000);
    const plain = await fetch(`${app.url}/assets/${signedIn}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await plain.text()).toBe(unzipped);
    expect((await get('/assets/missing.js', '*/*')).status).toBe(404);
  });

  it('leaves API clients, the APIs’ own pages and unknown API paths as they were', async () => {
    const api = await get('/', '*/*');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'not_found' });
    expect((await get('/', BROWSER_ACCEPT, 'POST')).status).toBe(404);
    const unknownApi = await get('/usage/bases/nope/else');
    expect(unknownApi.status).toBe(404);
    expect(unknownApi.headers.get('content-type')).toMatch(/json/);
    const landing = await get('/graphql');
    expect(landing.status).toBe(200);
    expect(await landing.text()).not.toContain(`/assets/${script}`);
    expect(await (await get('/docs/')).text()).toContain('swagger-ui');
    expect((await get('/openapi.json')).headers.get('content-type')).toMatch(/json/);
    expect((await get('/healthz')).headers.get('content-type')).toMatch(/json/);
  });
});
