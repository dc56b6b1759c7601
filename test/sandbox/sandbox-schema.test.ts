import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASE_NAMES, type SandboxChange } from '../../src/sandbox/index.js';
import { baseIdByName, startSandbox, type SandboxHarness } from './sandbox-harness.js';

interface FieldBody {
  id: string;
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown>;
}

interface TableBody {
  id: string;
  name: string;
  description?: string;
  primaryFieldId: string;
  fields: FieldBody[];
  views: Array<{ id: string; name: string; type: string }>;
}

describe('sandbox meta API', () => {
  let harness: SandboxHarness;
  const changes: SandboxChange[] = [];

  beforeAll(async () => {
    harness = await startSandbox();
    harness.sandbox.events.on('change', (change: SandboxChange) => changes.push(change));
  });

  afterAll(() => harness.close());

  const emptyBase = () => harness.sandbox.store.addBase({ name: 'Scratch', tables: [] }).id;

  it('lists the demo bases', async () => {
    const response = await harness.call<{ bases: Array<{ id: string; name: string; permissionLevel: string }>; offset?: string }>(
      'GET',
      '/v0/meta/bases',
    );
    expect(response.status).toBe(200);
    expect(response.body.offset).toBeUndefined();
    expect(response.body.bases.slice(0, 3).map((base) => [base.name, base.permissionLevel])).toEqual([
      [DEMO_BASE_NAMES.catalog, 'create'],
      [DEMO_BASE_NAMES.marketing, 'create'],
      [DEMO_BASE_NAMES.changeLog, 'create'],
    ]);
    expect(response.body.bases[0].id).toMatch(/^app[A-Za-z0-9]{14}$/);
  });

  it('returns the schema of a base', async () => {
    const baseId = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
    const response = await harness.call<{ tables: TableBody[] }>('GET', `/v0/meta/bases/${baseId}/tables`);
    const [products, suppliers] = response.body.tables;
    expect(response.body.tables.map((table) => table.name)).toEqual(['Products', 'Suppliers', 'Orders']);
    expect(products.fields.map((field) => [field.name, field.type])).toEqual([
      ['Name', 'singleLineText'],
      ['Price', 'number'],
      ['Photos', 'multipleAttachments'],
      ['Spec Sheets', 'multipleAttachments'],
      ['In Stock', 'checkbox'],
    ]);
    expect(products.primaryFieldId).toBe(products.fields[0].id);
    expect(products.views).toEqual([{ id: expect.stringMatching(/^viw/), name: 'Grid view', type: 'grid' }]);
    expect(suppliers.fields.some((field) => field.type === 'multipleAttachments')).toBe(false);

    const changeLog = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.changeLog);
    expect((await harness.call<{ tables: TableBody[] }>('GET', `/v0/meta/bases/${changeLog}/tables`)).body.tables).toEqual([]);
    expect((await harness.call('GET', '/v0/meta/bases/appAAAAAAAAAAAAAA/tables')).status).toBe(403);
  });

  it('adds visibleFieldIds to the views with include[]=visibleFieldIds or include=visibleFieldIds', async () => {
    const baseId = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
    const schema = async (query: string) =>
      (await harness.call<{ tables: TableBody[] }>('GET', `/v0/meta/bases/${baseId}/tables${query}`)).body.tables[0];
    const plain = await schema('');
    expect(plain.views[0]).not.toHaveProperty('visibleFieldIds');
    const fieldIds = plain.fields.map((field) => field.id);
    for (const query of ['?include[]=visibleFieldIds', '?include%5B%5D=visibleFieldIds', '?include=visibleFieldIds']) {
      expect((await schema(query)).views[0], query).toEqual({ ...plain.views[0], visibleFieldIds: fieldIds });
    }
    expect((await schema('?include=somethingElse')).views[0]).not.toHaveProperty('visibleFieldIds');
  });

  it('creates a table whose first field is primary and reports the change', async () => {
    const baseId = emptyBase();
    const response = await harness.call<TableBody>('POST', `/v0/meta/bases/${baseId}/tables`, {
      headers: { 'X-Sandbox-Source': 'client', 'X-Sandbox-User-Email': 'ada@example.com', 'X-Sandbox-User-Name': 'Ada' },
      body: {
        name: 'Changes',
        description: 'Audit log',
        fields: [
          { name: 'Summary', type: 'singleLineText' },
          { name: 'When', type: 'dateTime', options: { timeZone: 'utc', dateFormat: { name: 'iso' }, timeFormat: { name: '24hour' } } },
          { name: 'Kind', type: 'singleSelect', options: { choices: [{ name: 'record' }, { name: 'schema' }] } },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Changes', description: 'Audit log', primaryFieldId: response.body.fields[0].id });
    expect(response.body.fields[1].options).toEqual({
      timeZone: 'utc',
      dateFormat: { name: 'iso', format: 'YYYY-MM-DD' },
      timeFormat: { name: '24hour', format: 'HH:mm' },
    });
    expect(changes.at(-1)).toMatchObject({
      kind: 'tableCreated',
      baseId,
      tableId: response.body.id,
      actor: { source: 'client', user: { email: 'ada@example.com', name: 'Ada', id: expect.stringMatching(/^usr[A-Za-z0-9]{14}$/) } },
      table: { name: 'Changes', fields: [{ name: 'Summary' }, { name: 'When' }, { name: 'Kind' }] },
    });
  });

  it('validates new tables like the meta API', async () => {
    const baseId = emptyBase();
    const createTable = (body: unknown) => harness.call('POST', `/v0/meta/bases/${baseId}/tables`, { body });
    const text = (name: string) => ({ name, type: 'singleLineText' });

    expect((await createTable({ name: 'T', fields: [] })).status).toBe(422);
    expect((await createTable({ name: 'T', fields: [text('A'), text('a')] })).body.error.type).toBe('DUPLICATE_OR_EMPTY_FIELD_NAME');
    expect((await createTable({ name: 'T', fields: [text('A'), { name: 'F', type: 'formula' }] })).body.error.type).toBe(
      'UNSUPPORTED_FIELD_TYPE_FOR_CREATE',
    );
    const checkboxFirst = { name: 'Done', type: 'checkbox', options: { color: 'greenBright', icon: 'check' } };
    expect((await createTable({ name: 'T', fields: [checkboxFirst] })).body.error.type).toBe('UNSUPPORTED_FIELD_TYPE_FOR_CREATE');
    expect((await createTable({ name: 'T', fields: [text('A'), { name: 'N', type: 'number' }] })).body.error.type).toBe(
      'INVALID_FIELD_TYPE_OPTIONS_FOR_CREATE',
    );
    expect((await createTable({ name: 'T', description: '', fields: [text('A')] })).status).toBe(422);
    expect((await createTable({ name: 'T', fields: [text('A')] })).status).toBe(200);
    expect((await createTable({ name: 't', fields: [text('A')] })).body.error.type).toBe('DUPLICATE_TABLE_NAME');
    expect((await harness.call('POST', '/v0/meta/bases/appAAAAAAAAAAAAAA/tables', { body: {} })).status).toBe(403);
  });

  it('renames tables and fields, adds and deletes fields, and deletes tables', async () => {
    const baseId = emptyBase();
    const table = harness.sandbox.store.createTable(baseId, { name: 'Orders', fields: [{ name: 'Order', type: 'singleLineText' }] });
    const meta = `/v0/meta/bases/${baseId}/tables/${table.id}`;

    const renamed = await harness.call<TableBody>('PATCH', meta, { body: { name: 'Sales', description: 'All sales' } });
    expect(renamed.body).toMatchObject({ name: 'Sales', description: 'All sales' });
    expect(changes.at(-1)).toMatchObject({
      kind: 'tableUpdated',
      previous: { name: 'Orders', description: null },
      current: { name: 'Sales', description: 'All sales' },
    });
    expect((await harness.call('PATCH', meta, { body: {} })).status).toBe(422);

    const field = await harness.call<FieldBody>('POST', `${meta}/fields`, {
      body: { name: 'Total', type: 'currency', options: { precision: 2, symbol: '€' } },
    });
    expect(field.body).toMatchObject({ id: expect.stringMatching(/^fld/), name: 'Total', type: 'currency' });
    expect((await harness.call('POST', `${meta}/fields`, { body: { name: 'N', type: 'autoNumber' } })).status).toBe(422);
    expect((await harness.call('POST', `${meta}/fields`, { body: { name: 'total', type: 'email' } })).status).toBe(422);

    const updated = await harness.call<FieldBody>('PATCH', `${meta}/fields/${field.body.id}`, { body: { description: 'Gross' } });
    expect(updated.body).toMatchObject({ name: 'Total', description: 'Gross' });
    expect((await harness.call('PATCH', `${meta}/fields/${field.body.id}`, { body: {} })).status).toBe(422);
    expect(changes.at(-1)).toMatchObject({ kind: 'fieldUpdated', fieldId: field.body.id, current: { description: 'Gross' } });

    expect((await harness.call('DELETE', `${meta}/fields/${table.primaryFieldId}`)).status).toBe(422);
    expect((await harness.call('DELETE', `${meta}/fields/${field.body.id}`)).body).toEqual({ id: field.body.id, deleted: true });
    expect(changes.at(-1)).toMatchObject({ kind: 'fieldDeleted', fieldId: field.body.id, previous: { name: 'Total' } });

    expect((await harness.call('DELETE', meta)).body).toEqual({ id: table.id, deleted: true });
    expect(changes.at(-1)).toMatchObject({ kind: 'tableDeleted', tableId: table.id, tableName: 'Sales', recordCount: 0 });
    expect((await harness.call('GET', `/v0/${baseId}/${table.id}`)).status).toBe(403);
  });
});
