import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_BASES, newLogBase, upstreamBaseId } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { AUDIT_APP_ENV, relaxSandboxRateLimit, tableRows } from '../audit/audit-support.js';

type Fields = Record<string, unknown>;

/** Retries the assertions until they hold (the jobs run every 50 ms, the poll every second). */
const eventually = (assertions: () => Promise<void>, timeout = 15_000) => vi.waitFor(assertions, { timeout, interval: 100 });

/** The app's database for one run of the flow: extra environment, and what removes it afterwards. */
export interface FlowDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * The mirror end to end over HTTP against the sandbox: seeded, kept current, read at instants, restored; a gap
 * (the watch expired through the sandbox's controls) re-seeds it; another account sees none of it. Run on SQLite and
 * on PostgreSQL (`database` makes the run's own database).
 */
export function describeMirrorEndToEnd(name: string, database: () => Promise<FlowDatabase>): void {
  describe(name, () => {
    let app: TestApp;
    let api: SandboxApi;
    let baseId: string;
    let configId: string;
    let table: { id: string; primaryFieldId: string; fields: Array<{ id: string; name: string; type: string }> };
    let primaryName: string;

    const mirror = async () => (await app.http('GET', `/monitoring-config/${configId}/mirror`)).body.mirror;
    const recordAt = (recordId: string, at?: string) =>
      app.http('GET', `/monitoring-config/${configId}/records/${recordId}${at ? `?at=${encodeURIComponent(at)}` : ''}`);
    const byId = (fields: Fields) => Object.fromEntries(Object.entries(fields).filter(([key]) => key.startsWith('fld')));
    const upstreamFields = async (recordId: string): Promise<Fields> =>
      (await api.listRecords(baseId, table.id, `?returnFieldsByFieldId=true&filterByFormula=`)).records.find(
        (r: { id: string }) => r.id === recordId,
      )?.fields;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

    let db: FlowDatabase | undefined;

    beforeAll(async () => {
      db = await database();
      app = await startTestApp({ ...AUDIT_APP_ENV, ...db.env });
      relaxSandboxRateLimit(app);
      api = sandboxApi(app.url);
      baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
      const res = await app.http('POST', '/monitoring-config', {
        body: { baseId, monitoringBaseId: newLogBase(app), scope: 'records_only' },
      });
      expect(res.status).toBe(201);
      configId = res.body.config.id;
      const tables = await api.schema(baseId);
      table = tables.find((t) => t.name === 'Suppliers')!;
      primaryName = table.fields.find((f) => f.id === table.primaryFieldId)!.name;
      await eventually(async () => expect((await mirror()).status).toBe('live'), 20_000);
    });

    afterAll(async () => {
      await app?.close();
      await db?.drop();
    });

    it('is seeded with every record of every table, with the cells the REST API returns', async () => {
      const state = await mirror();
      expect(state.seededAt).toEqual(state.continuousSince);
      for (const t of await api.schema(baseId)) {
        const rows = await tableRows(api, baseId, t.id);
        expect(state.tables.find((m: { tableId: string }) => m.tableId === t.id)).toEqual({
          tableId: t.id,
          tableName: t.name,
          recordCount: rows.length,
        });
      }
      const [first] = await tableRows(api, baseId, table.id);
      const res = await recordAt(first!.id);
      expect(res.status).toBe(200);
      expect(res.body.record.fields).toEqual(await upstreamFields(first!.id));
    });

    it('answers a record as it stood before and after each change, and lists its versions newest first', async () => {
      const beforeCreate = new Date().toISOString();
      await settle();
      const created = await api.createRecords(baseId, table.id, [{ [primaryName]: 'Mirror first' }], {
        source: 'client',
        email: 'ann@example.com',
      });
      const recordId = created.records[0].id as string;
      await eventually(async () => expect((await recordAt(recordId)).status).toBe(200));
      await settle();
      const afterCreate = new Date().toISOString();
      await settle();
      await api.updateRecords(baseId, table.id, [{ id: recordId, fields: { [primaryName]: 'Mirror second' } }], { source: 'publicApi' });
      await eventually(async () => expect((await recordAt(recordId)).body.record.fields[table.primaryFieldId]).toBe('Mirror second'));

      expect((await recordAt(recordId, afterCreate)).body.record.fields[table.primaryFieldId]).toBe('Mirror first');
      expect((await recordAt(recordId, beforeCreate)).status).toBe(404);
      expect((await recordAt(recordId, '2000-01-01T00:00:00.000Z')).status).toBe(400);
      const history = await app.http('GET', `/monitoring-config/${configId}/records/${recordId}/history`);
      expect(history.status).toBe(200);
      expect(history.body.versions.map((v: { eventType: string }) => v.eventType)).toEqual(['record_update', 'record_create']);
      expect(history.body.versions[1]).toMatchObject({ source: 'client', userEmail: 'ann@example.com' });
      expect(history.body.versions[0].fields).toEqual(byId(await upstreamFields(recordId)));

      await api.deleteRecords(baseId, table.id, [recordId], { source: 'client', email: 'bob@example.com' });
      await eventually(async () => expect((await recordAt(recordId)).body.record.deletedAt).not.toBeNull());
      const deleted = await app.http('GET', `/monitoring-config/${configId}/deleted-records?tableId=${table.id}`);
      expect(deleted.body.records[0]).toMatchObject({ id: recordId, tableId: table.id, deletedBy: 'bob@example.com' });
      expect(deleted.body.records[0].fields[table.primaryFieldId]).toBe('Mirror second');
    });

    it('searches records over HTTP: the matches, 400 invalid_request for bad input, 404 for another account', async () => {
      const [first] = await tableRows(api, baseId, table.id);
      const value = String(first!.fields[primaryName]);
      const path = (query: string) => `/monitoring-config/${configId}/records?${query}`;
      const ok = await app.http('GET', path(`search=${encodeURIComponent(value.toUpperCase())}&tableId=${table.id}&limit=50`));
      expect(ok.status).toBe(200);
      expect(ok.body.records).toContainEqual({ id: first!.id, tableId: table.id, primaryValue: value });
      for (const query of ['search=', 'search=x&limit=51', 'search=x&tableId=Suppliers']) {
        const res = await app.http('GET', path(query));
        expect(res.status, query).toBe(400);
        expect(res.body).toEqual({ message: expect.any(String), code: 'invalid_request' });
      }
      const other = await app.other.http('GET', path('search=x'));
      expect(other.status).toBe(404);
      expect(other.body.code).toBe('not_found');
    });

    it('restores a deleted record with its values and sets an overwritten field back, with a dry run first', async () => {
      const [target] = await tableRows(api, baseId, table.id);
      const before = await upstreamFields(target!.id);
      const created = await api.createRecords(baseId, table.id, [{ [primaryName]: 'To restore' }]);
      const goneId = created.records[0].id as string;
      await eventually(async () => expect((await recordAt(goneId)).status).toBe(200));
      await settle();
      const instant = new Date().toISOString();
      await settle();
      await api.updateRecords(baseId, table.id, [{ id: target!.id, fields: { [primaryName]: 'Overwritten' } }]);
      await api.deleteRecords(baseId, table.id, [goneId]);
      await eventually(async () => expect((await recordAt(goneId)).body.record.deletedAt).not.toBeNull());
      await eventually(async () => expect((await recordAt(target!.id)).body.record.fields[table.primaryFieldId]).toBe('Overwritten'));

      const body = { tableId: table.id, recordIds: [goneId, target!.id], at: instant };
      const dry = await app.http('POST', `/monitoring-config/${configId}/restores`, { body: { ...body, dryRun: true } });
      expect(dry.status).toBe(200);
      expect(dry.body.restore).toMatchObject({ status: 'planned', create: 1, update: 1, progress: { done: 0, total: 2 } });
      expect(await upstreamFields(target!.id)).toMatchObject({ [table.primaryFieldId]: 'Overwritten' });

      const started = await app.http('POST', `/monitoring-config/${configId}/restores`, { body });
      expect(started.status).toBe(202);
      const restoreId = started.body.restore.id as string;
      let done: { createdRecordIds: Record<string, string> } | undefined;
      await eventually(async () => {
        const res = await app.http('GET', `/monitoring-config/${configId}/restores/${restoreId}`);
        expect(res.body.restore).toMatchObject({ status: 'done', progress: { done: 2, total: 2 } });
        done = res.body.restore;
      });
      const newId = done!.createdRecordIds[goneId]!;
      expect(newId).toMatch(/^rec/);
      expect((await upstreamFields(newId))?.[table.primaryFieldId]).toBe('To restore');
      expect((await upstreamFields(target!.id))?.[table.primaryFieldId]).toBe(before![table.primaryFieldId]);
      // The restore's own writes come back through the watch like any other change.
      await eventually(async () => expect((await recordAt(newId)).status).toBe(200));
    });

    it('says gap when the watch expired and seeds itself again', async () => {
      const watch = await app.running.services.watches.find({ baseId });
      const seededAt = (await mirror()).seededAt;
      await sandboxControl(app.url)('POST', `webhooks/${watch!.webhookId}/expire`);
      await app.running.services.watches.maintain();
      await eventually(async () => {
        const state = await mirror();
        expect(state.status).toBe('live');
        expect(state.continuousSince > seededAt).toBe(true);
        expect(state.seededAt).toBe(seededAt);
      }, 20_000);
    });

    it('says gap when its upstream webhook is deleted and seeds itself again, without waiting for the upkeep', async () => {
      const watch = await app.running.services.watches.find({ baseId });
      const before = await mirror();
      await sandboxControl(app.url)('POST', `webhooks/${watch!.webhookId}/delete`);
      await eventually(async () => {
        const state = await mirror();
        expect(state.status).toBe('live');
        expect(state.continuousSince > before.continuousSince).toBe(true);
      }, 20_000);
      expect((await app.running.services.watches.find({ baseId }))!.webhookId).not.toBe(watch!.webhookId);
    });

    it('is read by no other account', async () => {
      const [first] = await tableRows(api, baseId, table.id);
      for (const path of ['mirror', `records/${first!.id}`, `records/${first!.id}/history`, 'deleted-records']) {
        expect((await app.other.http('GET', `/monitoring-config/${configId}/${path}`)).status).toBe(404);
      }
      const restore = await app.other.http('POST', `/monitoring-config/${configId}/restores`, {
        body: { tableId: table.id, recordIds: [first!.id] },
      });
      expect(restore.status).toBe(404);
    });
  });
}
