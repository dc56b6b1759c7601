import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendChanges, type LoggedChange, type SeedChange } from '../support/change-entries.js';
import { DEMO_BASES, newLogBase, upstreamBaseId } from '../support/factories.js';
import type { Http } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The list over HTTP: its shape, paging, refusals and 404s. Its rules: test/services/change-query.service.test.ts. */

let app: TestApp;
let catalog: string;

beforeAll(async () => {
  app = await startTestApp();
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  catalog = await upstreamBaseId(app.http, DEMO_BASES.catalog);
});
afterAll(() => app?.close());

/** A monitoring config made through the API (it gets its own Changes table, in a log base of its own). */
async function newConfig(http: Http = app.http): Promise<{ id: string; monitoringBaseId: string; monitoringTableId: string }> {
  const res = await http('POST', '/monitoring-config', { body: { baseId: catalog, monitoringBaseId: newLogBase(app) } });
  if (res.status !== 201) throw new Error(`creating a config failed: ${res.status} ${res.text}`);
  return res.body.config;
}

const append = (configId: string, changes: SeedChange[]) => appendChanges(app.running.services.dataSource, configId, changes);

async function page(configId: string, query: Record<string, string | number> = {}, http: Http = app.http) {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return http('GET', `/monitoring-config/${configId}/changes${params.size ? `?${params}` : ''}`);
}

describe('GET /monitoring-config/{id}/changes', () => {
  it('answers the change list page with each entry in exactly the documented shape', async () => {
    const config = await newConfig();
    const [update, created] = await append(config.id, [
      {
        occurredAt: '2026-05-01T10:00:00.000Z',
        eventType: 'record_update',
        tableId: 'tblTABLE00000000A',
        tableName: 'Products',
        recordId: 'recRECORD000000A',
        fieldIds: ['fldFIELD0000000A', 'fldFIELD0000000B'],
        source: 'client',
        userEmail: 'ada@example.com',
        userName: 'Ada Lovelace',
        before: { fldFIELD0000000A: 'old', fldFIELD0000000B: 1 },
        after: { fldFIELD0000000A: 'new', fldFIELD0000000B: [{ id: 'selX', name: 'X' }] },
        monitoringRecordId: 'recMONITOR000000A',
      },
      {
        occurredAt: '2026-05-01T10:00:01.000Z',
        eventType: 'table_create',
        tableId: 'tblTABLE00000000B',
        tableName: 'Orders',
        recordId: null,
        source: 'publicApi',
        userEmail: null,
        userName: null,
        after: { name: 'Orders' },
      },
    ]);
    const res = await page(config.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      configId: config.id,
      monitoringBaseId: config.monitoringBaseId,
      monitoringTableId: config.monitoringTableId,
      records: [
        {
          id: created.id,
          monitoringRecordId: null,
          occurredAt: '2026-05-01T10:00:01.000Z',
          eventType: 'table_create',
          kind: 'schema',
          tableId: 'tblTABLE00000000B',
          tableName: 'Orders',
          recordId: null,
          fieldIds: [],
          source: 'publicApi',
          userEmail: null,
          userName: null,
          before: null,
          after: { name: 'Orders' },
        },
        {
          id: update.id,
          monitoringRecordId: 'recMONITOR000000A',
          occurredAt: '2026-05-01T10:00:00.000Z',
          eventType: 'record_update',
          kind: 'record',
          tableId: 'tblTABLE00000000A',
          tableName: 'Products',
          recordId: 'recRECORD000000A',
          fieldIds: ['fldFIELD0000000A', 'fldFIELD0000000B'],
          source: 'client',
          userEmail: 'ada@example.com',
          userName: 'Ada Lovelace',
          before: { fldFIELD0000000A: 'old', fldFIELD0000000B: 1 },
          after: { fldFIELD0000000A: 'new', fldFIELD0000000B: [{ id: 'selX', name: 'X' }] },
        },
      ],
    });
    expect(typeof res.body.records[0].id).toBe('string');
  });

  it('pages with nextCursor, and answers a refused query with 400 invalid_request (the rules: test/services/change-query.service.test.ts)', async () => {
    const config = await newConfig();
    const logged = await append(config.id, [{ occurredAt: '2026-06-01T00:00:00.000Z' }, { occurredAt: '2026-06-02T00:00:00.000Z' }]);
    const first = await page(config.id, { limit: 1 });
    expect(first.status).toBe(200);
    expect(first.body.records.map((r: LoggedChange) => r.id)).toEqual([logged[1].id]);
    const second = await page(config.id, { limit: 1, cursor: first.body.nextCursor });
    expect(second.body.records.map((r: LoggedChange) => r.id)).toEqual([logged[0].id]);
    expect(second.body).not.toHaveProperty('nextCursor');
    const refused: Array<Record<string, string | number>> = [
      { limit: 101 },
      { from: '2026-06-02', to: '2026-06-01' },
      { cursor: `${first.body.nextCursor}x` },
    ];
    for (const query of refused) {
      const res = await page(config.id, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body).toEqual({ message: expect.any(String), code: 'invalid_request' });
    }
  });

  it('is a 404 for another account’s config, an unknown id and a malformed id', async () => {
    const config = await newConfig();
    await append(config.id, [{ occurredAt: '2026-06-03T00:00:00.000Z' }]);
    for (const [http, id] of [
      [app.other.http, config.id],
      [app.http, '00000000-0000-4000-8000-000000000000'],
      [app.http, 'not-a-uuid'],
    ] as const) {
      const res = await page(id, {}, http);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await page(config.id)).body.records).toHaveLength(1);
  });
});
