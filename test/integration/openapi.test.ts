import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/rest/openapi.js';
import { assertMatchesOpenApi } from '../support/openapi-validator.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('the OpenAPI document', () => {
  it('is committed as openapi.json and matches the routes (run npm run openapi:write after changing them)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('is served at /openapi.json and lists every REST operation of the seed', async () => {
    const res = await app.http('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const operations = Object.entries(res.body.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /usage/bases',
        'POST /usage/bases',
        'PATCH /usage/bases/{id}',
        'DELETE /usage/bases/{id}',
        'GET /usage/bases/{id}/snapshots',
        'GET /usage/bases/{id}/snapshots/latest',
        'POST /usage/bases/{id}/run',
        'GET /airtable/bases',
        'GET /airtable/bases/{baseId}/tables',
      ]),
    );
  });

  it('rejects responses that break it (the check the whole suite runs on every response is real)', () => {
    expect(() => assertMatchesOpenApi('GET', '/usage/bases', 200, { bases: [{ id: 'x' }] })).toThrow(/does not match/);
    expect(() => assertMatchesOpenApi('GET', '/usage/bases', 200, { bases: [], extra: 1 })).toThrow(/does not match/);
    expect(() => assertMatchesOpenApi('GET', '/usage/bases', 418, {})).toThrow(/not documented/);
    expect(() => assertMatchesOpenApi('GET', '/usage/bases', 401, { message: 'x', code: 'nope' })).toThrow(/does not match/);
    expect(() => assertMatchesOpenApi('GET', '/usage/bases', 200, { bases: [] })).not.toThrow();
  });

  it('has a readable page served from npm assets', async () => {
    const page = await fetch(`${app.url}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui-bundle.js');
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${app.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });
});
