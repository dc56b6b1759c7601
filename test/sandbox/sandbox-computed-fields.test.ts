import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASE_NAMES, DEMO_TABLES } from '../../src/sandbox/index.js';
import { baseIdByName, startSandbox, type ErrorBody, type RecordBody, type SandboxHarness } from './sandbox-harness.js';

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

  afterAll(() => harness.close());

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
      'singleLineText', 'number', 'checkbox', 'autoNumber', 'formula', 'createdTime', 'lastModifiedTime', 'createdBy',
      'lastModifiedBy', 'button',
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
        const updated = await harness.call(method, tasksPath, { body: { records: [{ id: task.id, fields: { Name: 'changed', [name]: null } }] } });
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
    const computed = Object.fromEntries(TRACKER_COMPUTED.filter((name) => name in task.fields).map((name) => [name, task.fields[name]]));
    expect(replaced.body.fields).toEqual({ Name: 'Renamed', ...computed });
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
