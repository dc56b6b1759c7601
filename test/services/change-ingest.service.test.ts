import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userFromEmail } from '../../src/sandbox/index.js';
import { until } from '../support/eventually.js';
import { refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';
import { afterValues, allChanges, type ChangeRecord, logCatalogSuppliers, runPipeline, runPipelineRetrying } from './audit-flow.js';

/**
 * Ingestion (ChangeIngestService), the Changes-table writer (ChangeWriterService) and pings (UpstreamWatchService),
 * without HTTP: the pipeline is driven by hand (audit-flow.ts). Pings over HTTP: test/audit/ingestion-safety.test.ts.
 */

/**
 * A link set or cleared on one record also changes the inverse cell of the linked record (the sandbox emits that
 * second side as its own record update, as the platform does): the log gets one entry per record, never two.
 */
describe('the log of record links', () => {
  let t: TestServices;
  beforeAll(async () => {
    t = await startTestServices();
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  });
  afterAll(() => t?.close());

  const oldestFirst = (records: ChangeRecord[]) => [...records].reverse();
  const summary = (record: ChangeRecord) => ({
    eventType: record.eventType,
    tableName: record.tableName,
    recordId: record.recordId,
    fieldIds: record.fieldIds,
    userEmail: record.userEmail,
    after: record.after,
  });

  it('logs a link change once for the record and once for the linked record', async () => {
    const { baseId, configId, tableId: suppliersId } = await logCatalogSuppliers(t);
    const { store } = t.sandbox;
    const products = store.getTable(baseId, 'Products')!;
    const link = store.createField(baseId, products.id, {
      name: 'Supplier',
      type: 'multipleRecordLinks',
      options: { linkedTableId: suppliersId },
    });
    const inverseId = (link.options as { inverseLinkFieldId: string }).inverseLinkFieldId;
    const suppliers = store.getTable(baseId, suppliersId)!;
    const product = [...products.records.values()][0]!;
    const supplier = [...suppliers.records.values()][0]!;
    const productName = product.cellsByFieldId[products.fields[0]!.id] as string;
    const supplierName = supplier.cellsByFieldId[suppliers.fields.find((f) => f.name === 'Name')!.id] as string;
    const actor = { source: 'client' as const, user: userFromEmail('lin@example.com', 'Lin') };

    store.updateRecords(baseId, products.id, [{ id: product.id, fields: { Supplier: [supplier.id] } }], { actor });
    store.updateRecords(baseId, products.id, [{ id: product.id, fields: { Supplier: [] } }], { actor });

    await runPipeline(t);
    const records = await allChanges(t, configId);
    // Read again: nothing more comes of it.
    await runPipeline(t);
    const settled = await allChanges(t, configId);
    expect(settled).toHaveLength(4);
    expect(new Set(settled.map((record) => record.id)).size).toBe(4);
    expect(settled.map((record) => record.id)).toEqual(records.map((record) => record.id));
    expect(oldestFirst(settled).map(summary)).toEqual([
      {
        eventType: 'record_update',
        tableName: 'Products',
        recordId: product.id,
        fieldIds: [link.id],
        userEmail: 'lin@example.com',
        after: { [link.id]: [{ id: supplier.id, name: supplierName }] },
      },
      {
        eventType: 'record_update',
        tableName: 'Suppliers',
        recordId: supplier.id,
        fieldIds: [inverseId],
        userEmail: 'lin@example.com',
        after: { [inverseId]: [{ id: product.id, name: productName }] },
      },
      {
        eventType: 'record_update',
        tableName: 'Products',
        recordId: product.id,
        fieldIds: [link.id],
        userEmail: 'lin@example.com',
        after: { [link.id]: null },
      },
      {
        eventType: 'record_update',
        tableName: 'Suppliers',
        recordId: supplier.id,
        fieldIds: [inverseId],
        userEmail: 'lin@example.com',
        after: { [inverseId]: null },
      },
    ]);
  });
});

describe('two bases logged into each other (X→Y and Y→X)', () => {
  let t: TestServices;
  const x = { baseId: '', tableId: '', configId: '' };
  const y = { baseId: '', tableId: '', configId: '' };

  beforeAll(async () => {
    t = await startTestServices();
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    for (const [side, name] of [
      [x, 'Loop X'],
      [y, 'Loop Y'],
    ] as const) {
      const base = t.sandbox.store.addBase({ name, tables: [{ name: 'Notes', fields: [{ name: 'Name', type: 'singleLineText' }] }] });
      side.baseId = base.id;
      side.tableId = base.tables[0]!.id;
    }
    const configs = t.services.monitoringConfigs;
    x.configId = (await configs.create(t.accountId, { baseId: x.baseId, monitoringBaseId: y.baseId, scope: 'records_only' })).id;
    y.configId = (await configs.create(t.accountId, { baseId: y.baseId, monitoringBaseId: x.baseId, scope: 'records_only' })).id;
  });
  afterAll(() => t?.close());

  const names = (list: ChangeRecord[]) => list.map((change) => Object.values(change.after ?? {}).join(' | ')).sort();
  /** Runs the pipeline until the config logged a row named `name` and wrote it into its Changes table (in the other base). */
  const writtenBy = (configId: string, name: string) =>
    until(
      async () => {
        await runPipeline(t);
        return allChanges(t, configId);
      },
      (list) => list.some((change) => Object.values(change.after ?? {}).includes(name) && change.monitoringRecordId !== null),
    );
  const addNote = (side: typeof x, name: string) => t.sandbox.store.createRecords(side.baseId, side.tableId, [{ Name: name }]);

  it('logs a change once: the rows each config writes into the other base are not logged again', async () => {
    addNote(x, 'Changed in X');
    await writtenBy(x.configId, 'Changed in X');
    // Each base's changes are read in order: once a change made after a written row is logged, that row was read too.
    addNote(y, 'Marker in Y');
    await writtenBy(y.configId, 'Marker in Y');
    addNote(x, 'Marker in X');
    await writtenBy(x.configId, 'Marker in X');
    addNote(y, 'Second marker in Y');
    await writtenBy(y.configId, 'Second marker in Y');

    expect(names(await allChanges(t, x.configId))).toEqual(['Changed in X', 'Marker in X']);
    expect(names(await allChanges(t, y.configId))).toEqual(['Marker in Y', 'Second marker in Y']);
  });
});

describe('ingestion: pings, replays, failures', () => {
  let t: TestServices;
  let baseId: string;
  let monitoringBaseId: string;
  let configId: string;
  let monitoringTableId: string;
  let tableId: string;
  let primaryName: string;

  beforeAll(async () => {
    t = await startTestServices({ UPSTREAM_TIMEOUT_MS: '1500', AUDIT_WRITE_RETRY_BASE_MS: '200', AUDIT_WRITE_MAX_RETRY_MS: '1000' });
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    let config: { monitoringTableId: string };
    ({ baseId, monitoringBaseId, configId, tableId, primaryName, config } = await logCatalogSuppliers(t));
    monitoringTableId = config.monitoringTableId;
  });
  afterAll(() => t?.close());

  const watch = async () => (await t.services.watches.find({ baseId }))!;
  const macOf = async (raw: string) => {
    const secret = t.services.secrets.open((await watch()).macSecret);
    return `hmac-sha256=${createHmac('sha256', Buffer.from(secret, 'base64')).update(raw).digest('hex')}`;
  };
  const addRecord = (name: string) => t.sandbox.store.createRecords(baseId, tableId, [{ [primaryName]: name }]);
  const logged = () => allChanges(t, configId);

  it('accepts a ping with a valid MAC and refuses a wrong, missing or forged one as unauthorized, noting nothing', async () => {
    const w = await watch();
    const raw = JSON.stringify({ base: { id: baseId }, webhook: { id: w.webhookId }, timestamp: new Date().toISOString() });
    const heard: string[] = [];
    t.services.watches.onPing(async (pinged) => void heard.push(pinged.id));
    const accept = (body: string, mac: string | undefined) => t.services.watches.acceptPing(Buffer.from(body), mac);
    const before = (await watch()).lastPingAt;
    expect(await refusal(() => accept(raw, `hmac-sha256=${'0'.repeat(64)}`))).toBe('unauthorized');
    expect(await refusal(() => accept(raw, undefined))).toBe('unauthorized');
    expect(await refusal(async () => accept(raw.replace(baseId, 'appAAAAAAAAAAAAAA'), await macOf(raw)))).toBe('unauthorized');
    expect((await watch()).lastPingAt).toEqual(before);
    expect(heard).toEqual([]);

    expect(await refusal(async () => accept(raw, await macOf(raw)))).toBe('accepted');
    expect((await watch()).lastPingAt).not.toEqual(before);
    expect(heard).toEqual([w.id]);
  });

  it('makes no duplicate entry from many reads of the same payloads at once (a storm of pings: test/audit/ingestion-safety.test.ts)', async () => {
    const start = (await logged()).length;
    addRecord('Storm supplier');
    const w = await watch();
    await Promise.all(Array.from({ length: 10 }, () => t.services.changeIngest.ingest(w.id)));
    const after = await logged();
    expect(after).toHaveLength(start + 1);
    expect(new Set(after.map((r) => r.id)).size).toBe(after.length);
    expect(Object.values(after[0]!.after ?? {})).toContain('Storm supplier');
  });

  it('loses nothing and logs nothing twice when a page fails after its payloads were fetched', async () => {
    const start = (await logged()).length;
    const cursorBefore = (await watch()).payloadCursor;
    let failures = 0;
    // A sink that fails inside the ingestion transaction: like a crash between fetching and committing.
    t.services.changeIngest.addSink({
      accept: async () => {
        if (failures < 2) {
          failures += 1;
          throw new Error('simulated crash before commit');
        }
      },
    });
    addRecord('Crash supplier A');
    addRecord('Crash supplier B');
    const records = await until(
      async () => {
        await runPipelineRetrying(t);
        return logged();
      },
      (list) => list.length >= start + 2,
    );
    expect(failures).toBe(2);
    expect(records).toHaveLength(start + 2);
    expect(afterValues(records.slice(0, 2))).toEqual(expect.arrayContaining(['Crash supplier A', 'Crash supplier B']));
    expect((await watch()).payloadCursor).toBeGreaterThan(cursorBefore);
  });

  it('writes exactly one Changes-table row per entry after an outage and after lost answers', async () => {
    const { faults } = t.sandbox;
    // Outage: as soon as entries are committed, every upstream request fails with 503 for a while.
    let phase = 0;
    t.services.changeIngest.onEntriesLogged(() => {
      if (phase === 1) faults.update({ errorRate: 1, errorStatus: 503 });
      if (phase === 2) faults.update({ latencyMs: 2_500 });
    });
    phase = 1;
    addRecord('Outage supplier 1');
    addRecord('Outage supplier 2');
    await runPipelineRetrying(t);
    expect((await t.services.changeWriter.pending()).length).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 1_000));
    await runPipelineRetrying(t);
    faults.update({ errorRate: 0 });
    // Lost answers: the sandbox writes the rows but answers after the client gave up (timeout 1.5 s).
    phase = 2;
    addRecord('Slow supplier');
    await runPipelineRetrying(t);
    // The write timed out with the rows possibly written: they wait, marked, for the look-up before any resend.
    const uncertain = Number((await t.dataSource.query('SELECT COUNT(*) AS n FROM change_outbox WHERE batch_token IS NOT NULL'))[0].n);
    expect(uncertain).toBeGreaterThan(0);
    phase = 0;
    faults.update({ latencyMs: 0 });

    const records = await until(
      async () => {
        await runPipelineRetrying(t);
        return logged();
      },
      (list) => list.every((r) => r.monitoringRecordId !== null),
      30_000,
    );
    expect(records.every((r) => r.monitoringRecordId !== null)).toBe(true);
    const changesTable = t.sandbox.store.getTable(monitoringBaseId, monitoringTableId)!;
    const entryIdField = changesTable.fields.find((f) => f.name === 'Entry ID')!.id;
    const entryIds = [...changesTable.records.values()].map((row) => row.cellsByFieldId[entryIdField] as string);
    expect(new Set(entryIds).size).toBe(entryIds.length);
    expect(entryIds.sort()).toEqual(records.map((r) => r.id).sort());
  });
});
