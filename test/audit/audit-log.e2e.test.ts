import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { allChanges, AUDIT_APP_ENV, eventually, relaxSandboxRateLimit, tableRows, type ChangeRecord } from './audit-support.js';

/**
 * The nine event types, each made through the sandbox's API under a different change source, read back through
 * GET /monitoring-config/{id}/changes under the three scopes, and found once each in every Changes table.
 */
describe('audit log end to end', () => {
  let app: TestApp;
  let api: SandboxApi;
  let baseId: string;
  let monitoringBaseId: string;
  const configs: Record<'all' | 'records_only' | 'schema_only', string> = { all: '', records_only: '', schema_only: '' };
  const expected: Array<{ eventType: string; source: string; userEmail: string | null; userName: string | null }> = [];

  beforeAll(async () => {
    app = await startTestApp(AUDIT_APP_ENV);
    relaxSandboxRateLimit(app);
    api = sandboxApi(app.url);
    baseId = await upstreamBaseId(app.http, DEMO_BASES.marketing);
    monitoringBaseId = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    for (const scope of ['all', 'records_only', 'schema_only'] as const) {
      const res = await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId, scope } });
      expect(res.status).toBe(201);
      configs[scope] = res.body.config.id;
    }

    const [campaigns] = await api.schema(baseId);
    const primary = campaigns!.fields.find((f) => f.id === campaigns!.primaryFieldId)!;
    const expect_ = (eventType: string, source: string, userEmail: string | null = null, userName: string | null = null) =>
      expected.push({ eventType, source, userEmail, userName });

    const created = await api.createRecords(baseId, campaigns!.id, [{ [primary.name]: 'Audit launch' }], {
      source: 'client',
      email: 'ann@example.com',
      name: 'Ann Example',
    });
    expect_('record_create', 'client', 'ann@example.com', 'Ann Example');
    const recordId = created.records[0].id as string;
    await api.updateRecords(baseId, campaigns!.id, [{ id: recordId, fields: { [primary.name]: 'Audit launch 2' } }], {
      source: 'formSubmission',
    });
    expect_('record_update', 'formSubmission');
    await api.deleteRecords(baseId, campaigns!.id, [recordId], { source: 'automation' });
    expect_('record_delete', 'automation');

    const table = await api.createTable(
      baseId,
      { name: 'Audit Temp', fields: [{ name: 'Title', type: 'singleLineText' }] },
      {
        source: 'publicApi',
        email: 'bob@example.com',
        name: 'Bob',
      },
    );
    expect_('table_create', 'publicApi', 'bob@example.com', 'Bob');
    await api.updateTable(baseId, table.id, { name: 'Audit Renamed' }, { source: 'sync' });
    expect_('table_update', 'sync');
    const field = await api.createField(baseId, table.id, { name: 'Notes', type: 'multilineText' }, { source: 'system' });
    expect_('column_create', 'system');
    await api.updateField(baseId, table.id, field.id, { name: 'Remarks' }, { source: 'anonymousUser' });
    expect_('column_update', 'anonymousUser');
    await api.deleteField(baseId, table.id, field.id, { source: 'formPageSubmission' });
    expect_('column_delete', 'formPageSubmission');
    await api.deleteTable(baseId, table.id, { source: 'client', email: 'cy@example.com', name: 'Cy' });
    expect_('table_delete', 'client', 'cy@example.com', 'Cy');
  });
  afterAll(() => app?.close());

  const waitFor = (configId: string, count: number) =>
    eventually(
      () => allChanges(app.http, configId),
      (records) => records.length >= count,
    );

  it('logs each of the nine event types with its source and user, newest first, under scope all', async () => {
    const records = await waitFor(configs.all, 9);
    expect(records).toHaveLength(9);
    const oldestFirst = [...records].reverse();
    expect(oldestFirst.map(({ eventType, source, userEmail, userName }) => ({ eventType, source, userEmail, userName }))).toEqual(expected);
    const byType = Object.fromEntries(records.map((r) => [r.eventType, r])) as Record<string, ChangeRecord>;
    expect(byType.record_create!.kind).toBe('record');
    expect(byType.record_create!.tableName).toBe('Campaigns');
    expect(byType.record_create!.before).toBeNull();
    expect(Object.values(byType.record_create!.after!)).toContain('Audit launch');
    expect(byType.record_update!.fieldIds).toHaveLength(1);
    expect(Object.values(byType.record_update!.before!)).toContain('Audit launch');
    expect(Object.values(byType.record_update!.after!)).toContain('Audit launch 2');
    expect(byType.record_delete!.recordId).toBe(byType.record_create!.recordId);
    expect(byType.table_create!.kind).toBe('schema');
    expect(byType.table_create!.recordId).toBeNull();
    expect(byType.table_create!.after).toMatchObject({ name: 'Audit Temp' });
    expect(byType.table_update!.before).toMatchObject({ name: 'Audit Temp' });
    expect(byType.table_update!.after).toMatchObject({ name: 'Audit Renamed' });
    expect(byType.column_create!.recordId).toMatch(/^fld/);
    expect(byType.column_create!.fieldIds).toEqual([byType.column_create!.recordId]);
    expect(byType.column_update!.before).toMatchObject({ name: 'Notes' });
    expect(byType.column_update!.after).toMatchObject({ name: 'Remarks' });
    expect(byType.column_delete!.recordId).toBe(byType.column_create!.recordId);
    expect(byType.table_delete!.tableName).toBe('Audit Renamed');
    for (const r of records) expect(r.occurredAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('keeps only record events under records_only and only schema events under schema_only', async () => {
    const records = await waitFor(configs.records_only, 3);
    expect(records.map((r) => r.eventType).sort()).toEqual(['record_create', 'record_delete', 'record_update']);
    const schema = await waitFor(configs.schema_only, 6);
    expect(schema.map((r) => r.eventType).sort()).toEqual([
      'column_create',
      'column_delete',
      'column_update',
      'table_create',
      'table_delete',
      'table_update',
    ]);
  });

  it('writes every entry once into its Changes table and stores the row id', async () => {
    for (const configId of Object.values(configs)) {
      const config = (await app.http('GET', `/monitoring-config/${configId}`)).body.config;
      const records = await eventually(
        () => allChanges(app.http, configId),
        (list) => list.length > 0 && list.every((r) => r.monitoringRecordId !== null),
      );
      expect(records.every((r) => /^rec[A-Za-z0-9]{14}$/.test(r.monitoringRecordId ?? ''))).toBe(true);
      const rows = await tableRows(api, monitoringBaseId, config.monitoringTableId);
      expect(rows.map((row) => row.fields['Entry ID']).sort()).toEqual(records.map((r) => r.id).sort());
      const byId = new Map(rows.map((row) => [row.id, row.fields]));
      for (const r of records) {
        const row = byId.get(r.monitoringRecordId!)!;
        expect(row['Event Type']).toBe(r.eventType);
        expect(row['Occurred At']).toBe(r.occurredAt);
        expect(row.Source).toBe(r.source);
      }
    }
  });
});
