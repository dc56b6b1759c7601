import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASE_NAMES, DEMO_TABLES } from '../../src/sandbox/index.js';
import { baseIdByName, startSandbox, type ErrorBody, type RecordBody, type SandboxHarness } from './sandbox-harness.js';
import { createHook, payloadsOf } from './webhook-harness.js';

/** The message public reports quote for a write to a computed field (github.com/justkd/AirpuckJS/issues/3). */
const computedError = (name: string) => ({
  error: { type: 'INVALID_VALUE_FOR_COLUMN', message: `Field "${name}" cannot accept a value because the field is computed` },
});

const TRACKER_COMPUTED = ['Task ID', 'Summary', 'Created', 'Last Modified', 'Created By', 'Last Modified By', 'Open'];

describe('sandbox fields that cannot be written', () => {
  let harness: SandboxHarness;
  let tasksPath: string;

  beforeAll(async () => {
    harness = await startSandbox();
    tasksPath = `/v0/${baseIdByName(harness.sandbox, DEMO_BASE_NAMES.tracker)}/Tasks`;
  });

  afterAll(async () => {
    harness.sandbox.close();
    await harness.close();
  });

  async function firstTask(): Promise<RecordBody> {
    return (await harness.call<{ records: RecordBody[] }>('GET', `${tasksPath}?pageSize=1`)).body.records[0];
  }

  it('seeds a demo base whose Tasks carry every computed type that needs no link', async () => {
    const schema = await harness.call<{ tables: Array<{ name: string; fields: Array<{ name: string; type: string }> }> }>(
      'GET',
      `/v0/meta/bases/${baseIdByName(harness.sandbox, DEMO_BASE_NAMES.tracker)}/tables`,
    );
    const [tasks] = schema.body.tables;
    expect(tasks.fields.map((field) => field.type)).toEqual([
      'singleLineText',
      'number',
      'checkbox',
      'autoNumber',
      'formula',
      'createdTime',
      'lastModifiedTime',
      'createdBy',
      'lastModifiedBy',
      'button',
    ]);
    const listed = await harness.call<{ records: RecordBody[] }>('GET', tasksPath);
    expect(listed.body.records).toHaveLength(DEMO_TABLES[DEMO_BASE_NAMES.tracker].Tasks);
    const first = listed.body.records[0];
    expect(first.fields).toMatchObject({ 'Task ID': 1, Created: first.createdTime, 'Created By': { email: 'api-user@sandbox.invalid' } });
    expect(first.fields.Summary).toMatch(/^#1 /);
  });

  it('refuses every computed field on create, PATCH and PUT, writing nothing', async () => {
    const task = await firstTask();
    for (const name of TRACKER_COMPUTED) {
      const created = await harness.call('POST', tasksPath, { body: { records: [{ fields: { Name: 'x', [name]: 1 } }] } });
      expect([name, created.status, created.body]).toEqual([name, 422, computedError(name)]);
      for (const method of ['PATCH', 'PUT']) {
        const updated = await harness.call(method, tasksPath, {
          body: { records: [{ id: task.id, fields: { Name: 'changed', [name]: null } }] },
        });
        expect([name, method, updated.status, updated.body]).toEqual([name, method, 422, computedError(name)]);
      }
    }
    expect(await firstTask()).toEqual(task);
  });

  it('refuses rollup, count, lookup and AI text cells the same way', async () => {
    const base = harness.sandbox.store.addBase({
      name: 'Computed',
      tables: [
        {
          name: 'Items',
          fields: [
            { name: 'Name', type: 'singleLineText' },
            { name: 'Total', type: 'rollup' },
            { name: 'Parts', type: 'count' },
            { name: 'Supplier name', type: 'multipleLookupValues' },
            { name: 'Blurb', type: 'aiText' },
          ],
          records: [{ Name: 'a', Total: 3, Parts: 2 }],
        },
      ],
    });
    const path = `/v0/${base.id}/Items`;
    for (const name of ['Total', 'Parts', 'Supplier name', 'Blurb']) {
      const response = await harness.call<ErrorBody>('POST', path, { body: { fields: { Name: 'b', [name]: 1 } } });
      expect([name, response.body]).toEqual([name, computedError(name)]);
    }
  });

  it('keeps computed cells when a PUT clears the cells it does not name', async () => {
    const task = await firstTask();
    const replaced = await harness.call<RecordBody>('PUT', `${tasksPath}/${task.id}`, { body: { fields: { Name: 'Renamed' } } });
    expect(replaced.status).toBe(200);
    const kept = TRACKER_COMPUTED.filter((name) => name !== 'Last Modified' && name in task.fields);
    expect(replaced.body.fields).toEqual({
      Name: 'Renamed',
      ...Object.fromEntries(kept.map((name) => [name, task.fields[name]])),
      'Last Modified': expect.any(String),
    });
  });

  it("fills the computed cells the platform derives from a record's own history on create and update", async () => {
    const before = (await harness.call<{ records: RecordBody[] }>('GET', tasksPath)).body.records;
    const highest = Math.max(...before.map((record) => record.fields['Task ID'] as number));
    const ada = { 'X-Sandbox-User-Email': 'ada@example.com', 'X-Sandbox-User-Name': 'Ada' };
    const created = await harness.call<{ records: RecordBody[] }>('POST', tasksPath, {
      body: { records: [{ fields: { Name: 'New one' } }, { fields: { Name: 'New two' } }] },
      headers: ada,
    });
    const [one, two] = created.body.records;
    const adaCell = { id: expect.stringMatching(/^usr/), email: 'ada@example.com', name: 'Ada' };
    expect(one.fields).toEqual({
      Name: 'New one',
      'Task ID': highest + 1,
      Created: one.createdTime,
      'Last Modified': one.createdTime,
      'Created By': adaCell,
      'Last Modified By': adaCell,
    });
    expect(two.fields['Task ID']).toBe(highest + 2);

    const trackerId = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.tracker);
    const { id: webhookId } = await createHook(harness, trackerId, {
      specification: { options: { filters: { dataTypes: ['tableData'] }, includes: { includePreviousCellValues: true } } },
    });
    const updated = await harness.call<RecordBody>('PATCH', `${tasksPath}/${one.id}`, { body: { fields: { Estimate: 3 } } });
    expect(updated.body.fields).toMatchObject({ 'Created By': adaCell, 'Last Modified By': { email: 'api-user@sandbox.invalid' } });
    expect(Date.parse(updated.body.fields['Last Modified'] as string)).toBeGreaterThanOrEqual(Date.parse(one.createdTime));
    // The recomputed cells change with the write, so its payload reports them too.
    const table = harness.sandbox.store.requireTable(trackerId, 'Tasks').table;
    const fieldId = (name: string) => table.fields.find((field) => field.name === name)!.id;
    const [payload] = (await payloadsOf(harness, trackerId, webhookId)).payloads;
    expect(payload.changedTablesById?.[table.id].changedRecordsById?.[one.id]).toEqual({
      current: {
        cellValuesByFieldId: {
          [fieldId('Estimate')]: 3,
          [fieldId('Last Modified')]: updated.body.fields['Last Modified'],
          [fieldId('Last Modified By')]: updated.body.fields['Last Modified By'],
        },
      },
      previous: {
        cellValuesByFieldId: {
          [fieldId('Estimate')]: null,
          [fieldId('Last Modified')]: one.createdTime,
          [fieldId('Last Modified By')]: adaCell,
        },
      },
    });
  });

  it('refuses to create computed fields through the meta API', async () => {
    const baseId = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.tracker);
    const tableId = harness.sandbox.store.requireTable(baseId, 'Tasks').table.id;
    const response = await harness.call<ErrorBody>('POST', `/v0/meta/bases/${baseId}/tables/${tableId}/fields`, {
      body: { name: 'Another formula', type: 'formula', options: { formula: '1' } },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.type).toBe('UNSUPPORTED_FIELD_TYPE_FOR_CREATE');
  });
});
