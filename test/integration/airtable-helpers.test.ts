import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterEach(() => app.running.sandbox!.faults.reset());
afterAll(() => app.close());

describe('GET /airtable/bases', () => {
  it('lists the upstream account’s bases as { id, name, permissionLevel }', async () => {
    const res = await app.http('GET', '/airtable/bases');
    expect(res.status).toBe(200);
    const expected = app.running.sandbox!.store.listBases().map((b) => ({ id: b.id, name: b.name, permissionLevel: b.permissionLevel }));
    expect(res.body).toEqual({ bases: expected });
    expect(res.body.bases.map((b: { name: string }) => b.name)).toEqual(expect.arrayContaining(Object.values(DEMO_BASES)));
    for (const base of res.body.bases) expect(base.id).toMatch(/^app[A-Za-z0-9]{14}$/);
  });

  it('answers 502 upstream_error when the upstream fails for good', async () => {
    app.running.sandbox!.faults.update({ errorRate: 1, errorStatus: 500 });
    const res = await app.http('GET', '/airtable/bases');
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('upstream_error');
  });
});

describe('GET /airtable/bases/{baseId}/tables', () => {
  it('lists tables with their primary field and fields as { id, name, type }', async () => {
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
    const products = res.body.tables.find((t: { name: string }) => t.name === 'Products');
    expect(products.fields.map((f: { type: string }) => f.type)).toContain('multipleAttachments');
  });

  it('answers 404 for a base the upstream account does not have, 400 for a malformed id', async () => {
    expect((await app.http('GET', '/airtable/bases/appAAAAAAAAAAAAAA/tables')).body).toEqual({
      message: 'Upstream base not found',
      code: 'not_found',
    });
    expect((await app.http('GET', '/airtable/bases/nonsense/tables')).status).toBe(400);
  });

  it('requires an API key', async () => {
    expect((await app.http('GET', '/airtable/bases', { key: null })).status).toBe(401);
  });
});
