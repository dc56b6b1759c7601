import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The upstream helpers over HTTP: status, shape, 400, 404, 401, 502. Their rules: test/services/airtable-lookup.service.test.ts. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterEach(() => app.running.sandbox!.faults.reset());
afterAll(() => app.close());

describe('GET /airtable/bases', () => {
  it('lists the upstream account’s bases as exactly { id, name, permissionLevel }', async () => {
    const res = await app.http('GET', '/airtable/bases');
    expect(res.status).toBe(200);
    const expected = app.running.sandbox!.store.listBases().map((b) => ({ id: b.id, name: b.name, permissionLevel: b.permissionLevel }));
    expect(res.body).toEqual({ bases: expected });
  });

  it('answers 502 upstream_error when the upstream fails for good', async () => {
    app.running.sandbox!.faults.update({ errorRate: 1, errorStatus: 500 });
    const res = await app.http('GET', '/airtable/bases');
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('upstream_error');
  });

  it('requires an API key', async () => {
    expect((await app.http('GET', '/airtable/bases', { key: null })).status).toBe(401);
  });
});

describe('GET /airtable/bases/{baseId}/tables', () => {
  it('lists tables with their primary field and fields as exactly { id, name, type }', async () => {
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    const res = await app.http('GET', `/airtable/bases/${baseId}/tables`);
    expect(res.status).toBe(200);
    const tables = app.running.sandbox!.store.getBase(baseId)!.tables;
    expect(res.body).toEqual({
      tables: tables.map((t) => ({
        id: t.id,
        name: t.name,
        primaryFieldId: t.primaryFieldId,
        fields: t.fields.map((f) => ({ id: f.id, name: f.name, type: f.type })),
      })),
    });
  });

  it('answers 404 for a base the upstream account does not have, 400 for a malformed id', async () => {
    expect((await app.http('GET', '/airtable/bases/appAAAAAAAAAAAAAA/tables')).body).toEqual({
      message: 'Upstream base not found',
      code: 'not_found',
    });
    const malformed = await app.http('GET', '/airtable/bases/nonsense/tables');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: expect.any(String), code: 'invalid_request' });
  });
});
