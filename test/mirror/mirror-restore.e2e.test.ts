import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newLogBase, upstreamBaseId } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { AUDIT_APP_ENV, relaxSandboxRateLimit } from '../audit/audit-support.js';

const eventually = (assertions: () => Promise<void>, timeout = 15_000) => vi.waitFor(assertions, { timeout, interval: 100 });

/**
 * Restores of the demo "Project Tracker" base: its Tasks table has every computed field type, which a restore skips
 * and lists; links to a re-created record are pointed at its new id where the linking record still exists.
 */
describe('restores with computed fields and links', () => {
  let app: TestApp;
  let api: SandboxApi;
  let baseId: string;
  let configId: string;
  let tasks: { id: string; primaryFieldId: string; fields: Array<{ id: string; name: string; type: string }> };
  let people: { id: string };
  let ownerFieldId: string;
  let tasksOfPersonFieldId: string;

  const recordAt = (recordId: string) => app.http('GET', `/monitoring-config/${configId}/records/${recordId}`);
  const upstreamRecord = async (tableId: string, recordId: string) =>
    (await api.call('GET', `/${baseId}/${tableId}/${recordId}?returnFieldsByFieldId=true`)).fields as Record<string, unknown>;
  const restore = async (body: Record<string, unknown>) => {
    const started = await app.http('POST', `/monitoring-config/${configId}/restores`, { body });
    expect(started.status).toBe(202);
    let done: { status: string; createdRecordIds: Record<string, string>; skippedFieldIds: string[] } | undefined;
    await eventually(async () => {
      done = (await app.http('GET', `/monitoring-config/${configId}/restores/${started.body.restore.id}`)).body.restore;
      expect(done!.status).toBe('done');
    });
    return done!;
  };

  beforeAll(async () => {
    app = await startTestApp(AUDIT_APP_ENV);
    relaxSandboxRateLimit(app);
    api = sandboxApi(app.url);
    baseId = await upstreamBaseId(app.http, 'Project Tracker');
    tasks = (await api.schema(baseId)).find((t) => t.name === 'Tasks')!;
    people = await api.createTable(baseId, { name: 'People', fields: [{ name: 'Name', type: 'singleLineText' }] });
    const owner = await api.createField(baseId, tasks.id, {
      name: 'Owner',
      type: 'multipleRecordLinks',
      options: { linkedTableId: people.id },
    });
    ownerFieldId = owner.id;
    tasksOfPersonFieldId = owner.options.inverseLinkFieldId;
    const res = await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId: newLogBase(app) } });
    expect(res.status).toBe(201);
    configId = res.body.config.id;
    await eventually(
      async () => expect((await app.http('GET', `/monitoring-config/${configId}/mirror`)).body.mirror.status).toBe('live'),
      20_000,
    );
  });

  afterAll(async () => {
    await app?.close();
  });

  it('re-creates a deleted record without its computed fields, and lists them', async () => {
    const created = await api.createRecords(baseId, tasks.id, [{ Name: 'Restore me', Estimate: 3 }]);
    const taskId = created.records[0].id as string;
    await eventually(async () => expect((await recordAt(taskId)).status).toBe(200));
    await api.deleteRecords(baseId, tasks.id, [taskId]);
    await eventually(async () => expect((await recordAt(taskId)).body.record.deletedAt).not.toBeNull());

    const done = await restore({ tableId: tasks.id, recordIds: [taskId] });
    const computed = tasks.fields.filter((f) =>
      ['autoNumber', 'formula', 'createdTime', 'lastModifiedTime', 'createdBy', 'lastModifiedBy', 'button'].includes(f.type),
    );
    const held = Object.keys((await recordAt(taskId)).body.record.fields);
    expect(done.skippedFieldIds).toEqual(
      computed
        .map((f) => f.id)
        .filter((id) => held.includes(id))
        .sort(),
    );
    expect(done.skippedFieldIds.length).toBeGreaterThan(0);
    const fields = await upstreamRecord(tasks.id, done.createdRecordIds[taskId]!);
    expect(fields[tasks.primaryFieldId]).toBe('Restore me');
    expect(fields[tasks.fields.find((f) => f.name === 'Estimate')!.id]).toBe(3);
  });

  it('re-creates a deleted record whole when fieldIds name some fields (they choose among an existing record’s)', async () => {
    const estimate = tasks.fields.find((f) => f.name === 'Estimate')!.id;
    const made = await api.createRecords(baseId, tasks.id, [
      { Name: 'Keep my name', Estimate: 5 },
      { Name: 'Existing', Estimate: 1 },
    ]);
    const [gone, kept] = made.records.map((r: { id: string }) => r.id);
    await eventually(async () => expect((await recordAt(kept)).status).toBe(200));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const before = new Date().toISOString();
    await api.updateRecords(baseId, tasks.id, [{ id: kept, fields: { Name: 'Renamed', Estimate: 2 } }]);
    await api.deleteRecords(baseId, tasks.id, [gone]);
    await eventually(async () => expect((await recordAt(gone)).body.record.deletedAt).not.toBeNull());
    await eventually(async () => expect((await recordAt(kept)).body.record.fields[estimate]).toBe(2));

    const done = await restore({ tableId: tasks.id, recordIds: [gone, kept], at: before, fieldIds: [estimate] });
    const recreated = await upstreamRecord(tasks.id, done.createdRecordIds[gone]!);
    expect(recreated).toMatchObject({ [tasks.primaryFieldId]: 'Keep my name', [estimate]: 5 });
    expect(await upstreamRecord(tasks.id, kept)).toMatchObject({ [tasks.primaryFieldId]: 'Renamed', [estimate]: 1 });
  });

  it('points the links of records that still exist at a re-created record, and links of later restores at earlier ones', async () => {
    const person = (await api.createRecords(baseId, people.id, [{ Name: 'Pat' }])).records[0].id as string;
    const linked = await api.createRecords(baseId, tasks.id, [
      { Name: 'Pat task 1', Owner: [person] },
      { Name: 'Pat task 2', Owner: [person] },
    ]);
    const [task1, task2] = linked.records.map((r: { id: string }) => r.id);
    await eventually(async () => expect((await recordAt(person)).body.record.fields[tasksOfPersonFieldId]).toHaveLength(2));
    // The person goes, and task 2 with them; task 1 stays and loses its link.
    await api.deleteRecords(baseId, tasks.id, [task2]);
    await api.deleteRecords(baseId, people.id, [person]);
    await eventually(async () => expect((await recordAt(person)).body.record.deletedAt).not.toBeNull());
    await eventually(async () => expect((await recordAt(task1)).body.record.fields[ownerFieldId]).toBeUndefined());

    const personBack = (await restore({ tableId: people.id, recordIds: [person] })).createdRecordIds[person]!;
    expect((await upstreamRecord(tasks.id, task1))[ownerFieldId]).toEqual([personBack]);
    const taskBack = (await restore({ tableId: tasks.id, recordIds: [task2] })).createdRecordIds[task2]!;
    expect((await upstreamRecord(tasks.id, taskBack))[ownerFieldId]).toEqual([personBack]);
  });

  it('refuses to re-create a deleted record a second time, naming the record it came back as (409 conflict)', async () => {
    const taskId = (await api.createRecords(baseId, tasks.id, [{ Name: 'Only once' }])).records[0].id as string;
    await eventually(async () => expect((await recordAt(taskId)).status).toBe(200));
    await api.deleteRecords(baseId, tasks.id, [taskId]);
    await eventually(async () => expect((await recordAt(taskId)).body.record.deletedAt).not.toBeNull());
    const newId = (await restore({ tableId: tasks.id, recordIds: [taskId] })).createdRecordIds[taskId]!;

    for (const dryRun of [true, false]) {
      const again = await app.http('POST', `/monitoring-config/${configId}/restores`, {
        body: { tableId: tasks.id, recordIds: [taskId], dryRun },
      });
      expect(again.status, `dryRun ${dryRun}`).toBe(409);
      expect(again.body.code).toBe('conflict');
      expect(again.body.message).toContain(newId);
    }
    const copies = (await api.listRecords(baseId, tasks.id, '?returnFieldsByFieldId=true')).records.filter(
      (record: { fields: Record<string, unknown> }) => record.fields[tasks.primaryFieldId] === 'Only once',
    );
    expect(copies).toHaveLength(1);
  });

  it('lists fieldIds the table does not have among the skipped, and answers 400 for an instant in the future', async () => {
    const [first] = (await api.listRecords(baseId, tasks.id, '?returnFieldsByFieldId=true')).records as Array<{ id: string }>;
    const estimate = tasks.fields.find((f) => f.name === 'Estimate')!.id;
    const unknown = 'fldNoSuchField001';
    const plan = await app.http('POST', `/monitoring-config/${configId}/restores`, {
      body: { tableId: tasks.id, recordIds: [first!.id], fieldIds: [estimate, unknown], dryRun: true },
    });
    expect(plan.status).toBe(200);
    expect(plan.body.restore.skippedFieldIds).toEqual([unknown]);

    const future = new Date(Date.now() + 3_600_000).toISOString();
    const read = await app.http('GET', `/monitoring-config/${configId}/records/${first!.id}?at=${encodeURIComponent(future)}`);
    expect(read.status).toBe(400);
    expect(read.body).toMatchObject({ code: 'invalid_request', message: 'at must not be in the future' });
    const later = await app.http('POST', `/monitoring-config/${configId}/restores`, {
      body: { tableId: tasks.id, recordIds: [first!.id], at: future, dryRun: true },
    });
    expect(later.status).toBe(400);
  });
});
