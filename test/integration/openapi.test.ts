import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/rest/openapi.js';
import { assertMatchesOpenApi, uncompilableSchemas } from '../support/openapi-validator.js';
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

  it('is valid by the official OpenAPI 3.0 schema', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(buildOpenApiDocument())));
    expect(validator.version).toBe('3.0');
    expect(result).toEqual({ valid: true });
  });

  it('reads the same in a stock OpenAPI 3.0 validator: every schema compiles, `nullable` only beside a `type`', () => {
    expect(uncompilableSchemas()).toEqual([]);
  });

  it('takes null exactly where the service answers it', () => {
    const latest = '/usage/bases/x/snapshots/latest';
    expect(() => assertMatchesOpenApi('GET', latest, 200, { baseId: 'appA1b2C3d4E5f6G7', day: null })).not.toThrow();
    expect(() => assertMatchesOpenApi('GET', latest, 200, { baseId: 'appA1b2C3d4E5f6G7', day: {} })).toThrow(/does not match/);
    expect(() => assertMatchesOpenApi('GET', latest, 200, { baseId: null, day: null })).toThrow(/does not match/);
    const schedule = '/usage/bases/x/schedule';
    expect(() => assertMatchesOpenApi('GET', schedule, 200, { nextRunAt: null, lastRun: null })).not.toThrow();
    expect(() => assertMatchesOpenApi('GET', schedule, 200, { nextRunAt: null, lastRun: { status: 'ok' } })).toThrow(/does not match/);
    // Cell values are any JSON value, null included.
    const change = {
      id: 'c1',
      monitoringRecordId: null,
      occurredAt: '2026-11-21T09:00:00.000Z',
      eventType: 'record_update',
      kind: 'record',
      tableId: 'tblA1b2C3d4E5f6G7',
      tableName: 'Tasks',
      recordId: 'recA1b2C3d4E5f6G7',
      fieldIds: ['fldA1b2C3d4E5f6G7'],
      source: 'client',
      userEmail: null,
      userName: null,
      before: { fldA1b2C3d4E5f6G7: null },
      after: null,
    };
    const configId = '00000000-0000-4000-8000-000000000000';
    const page = { configId, monitoringBaseId: 'appA1b2C3d4E5f6G7', monitoringTableId: 'tblA1b2C3d4E5f6G7', records: [change] };
    expect(() => assertMatchesOpenApi('GET', '/monitoring-config/x/changes', 200, page)).not.toThrow();
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
