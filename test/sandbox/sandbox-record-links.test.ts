import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type SandboxChange, type SandboxTable, type TableDefinition } from '../../src/sandbox/index.js';
import type { WebhookPayload } from '../../src/upstream/webhook-types.js';
import { startSandbox, type RecordBody, type SandboxHarness } from './sandbox-harness.js';
import { createHook, payloadsOf } from './webhook-harness.js';

interface FieldBody {
  id: string;
  name: string;
  type: string;
  options?: Record<string, unknown>;
}

interface TableBody {
  id: string;
  name: string;
  fields: FieldBody[];
}

describe('sandbox record links', () => {
  let harness: SandboxHarness;
  const changes: SandboxChange[] = [];

  beforeAll(async () => {
    harness = await startSandbox({ demo: false });
    harness.sandbox.events.on('change', (change: SandboxChange) => changes.push(change));
  });

  afterAll(() => harness.close());

  /** A base with Suppliers (Nordwind, Bluepeak) and Products (Lamp, Desk). */
  function addBase() {
    const base = harness.sandbox.store.addBase({
      name: 'Links',
      tables: [
        { name: 'Suppliers', fields: [{ name: 'Name', type: 'singleLineText' }], records: [{ Name: 'Nordwind' }, { Name: 'Bluepeak' }] },
        { name: 'Products', fields: [{ name: 'Name', type: 'singleLineText' }], records: [{ Name: 'Lamp' }, { Name: 'Desk' }] },
      ],
    });
    const [suppliers, products] = base.tables;
    const ids = (table: SandboxTable) => [...table.records.keys()];
    return {
      baseId: base.id,
      suppliers,
      products,
      nordwind: ids(suppliers)[0],
      bluepeak: ids(suppliers)[1],
      lamp: ids(products)[0],
      desk: ids(products)[1],
      meta: `/v0/meta/bases/${base.id}/tables`,
      path: (table: SandboxTable) => `/v0/${base.id}/${table.id}`,
    };
  }

  async function addLink(setup: ReturnType<typeof addBase>, name = 'Supplier') {
    const response = await harness.call<FieldBody>('POST', `${setup.meta}/${setup.products.id}/fields`, {
      body: { name, type: 'multipleRecordLinks', options: { linkedTableId: setup.suppliers.id } },
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  async function schemaOf(baseId: string): Promise<TableBody[]> {
    return (await harness.call<{ tables: TableBody[] }>('GET', `/v0/meta/bases/${baseId}/tables`)).body.tables;
  }

  async function cell(setup: ReturnType<typeof addBase>, table: SandboxTable, recordId: string, fieldId: string) {
    const record = await harness.call<RecordBody>('GET', `${setup.path(table)}/${recordId}?returnFieldsByFieldId=true`);
    return record.body.fields[fieldId];
  }

  it('gives a new link field an inverse field in the linked table, named after the linking table', async () => {
    const setup = addBase();
    const seen = changes.length;
    const field = await addLink(setup);

    const [suppliers, products] = await schemaOf(setup.baseId);
    const inverse = suppliers.fields.find((candidate) => candidate.type === 'multipleRecordLinks')!;
    expect(inverse).toEqual({
      id: expect.stringMatching(/^fld[A-Za-z0-9]{14}$/),
      name: 'Products',
      type: 'multipleRecordLinks',
      options: { linkedTableId: products.id, inverseLinkFieldId: field.id, isReversed: false, prefersSingleRecordLink: false },
    });
    expect(field.options).toEqual({
      linkedTableId: suppliers.id,
      inverseLinkFieldId: inverse.id,
      isReversed: false,
      prefersSingleRecordLink: false,
    });
    expect(products.fields.find((candidate) => candidate.id === field.id)).toEqual(field);
    expect(changes.slice(seen).map((change) => [change.kind, change.tableId])).toEqual([
      ['fieldCreated', products.id],
      ['fieldCreated', suppliers.id],
    ]);

    const second = await addLink(setup, 'Backup supplier');
    const names = (await schemaOf(setup.baseId))[0].fields.map((candidate) => candidate.name);
    expect(names).toEqual(['Name', 'Products', 'Products 2']);
    expect(second.options?.inverseLinkFieldId).toBe((await schemaOf(setup.baseId))[0].fields[2].id);
  });

  it('gives a link to its own table no inverse field, and links of a new table inverse fields', async () => {
    const setup = addBase();
    const self = await harness.call<FieldBody>('POST', `${setup.meta}/${setup.products.id}/fields`, {
      body: { name: 'Related', type: 'multipleRecordLinks', options: { linkedTableId: setup.products.id } },
    });
    expect(self.body.options).toEqual({ linkedTableId: setup.products.id, isReversed: false, prefersSingleRecordLink: false });
    expect((await schemaOf(setup.baseId))[1].fields.map((field) => field.name)).toEqual(['Name', 'Related']);

    const orders = await harness.call<TableBody>('POST', setup.meta, {
      body: {
        name: 'Orders',
        fields: [
          { name: 'Order', type: 'singleLineText' },
          { name: 'Items', type: 'multipleRecordLinks', options: { linkedTableId: setup.products.id } },
        ],
      },
    });
    const items = orders.body.fields[1];
    const inverse = (await schemaOf(setup.baseId))[1].fields.find((field) => field.name === 'Orders')!;
    expect(items.options).toMatchObject({ linkedTableId: setup.products.id, inverseLinkFieldId: inverse.id });
    expect(inverse.options).toMatchObject({ linkedTableId: orders.body.id, inverseLinkFieldId: items.id });
  });

  it('keeps the inverse cells of the linked records in step when links are added and removed', async () => {
    const setup = addBase();
    const field = await addLink(setup);
    const inverseId = field.options?.inverseLinkFieldId as string;

    await harness.call('PATCH', `${setup.path(setup.products)}/${setup.lamp}`, { body: { fields: { Supplier: [setup.nordwind] } } });
    await harness.call('PATCH', setup.path(setup.products), {
      body: { records: [{ id: setup.desk, fields: { Supplier: [setup.nordwind, setup.bluepeak] } }] },
    });
    expect(await cell(setup, setup.suppliers, setup.nordwind, inverseId)).toEqual([setup.lamp, setup.desk]);
    expect(await cell(setup, setup.suppliers, setup.bluepeak, inverseId)).toEqual([setup.desk]);

    await harness.call('PUT', `${setup.path(setup.products)}/${setup.desk}`, {
      body: { fields: { Name: 'Desk', Supplier: [setup.bluepeak] } },
    });
    expect(await cell(setup, setup.suppliers, setup.nordwind, inverseId)).toEqual([setup.lamp]);

    // Written from the other side, the link shows on the product.
    await harness.call('PATCH', `${setup.path(setup.suppliers)}/${setup.bluepeak}`, { body: { fields: { Products: [setup.lamp] } } });
    expect(await cell(setup, setup.products, setup.lamp, field.id)).toEqual([setup.nordwind, setup.bluepeak]);
    expect(await cell(setup, setup.products, setup.desk, field.id)).toBeUndefined();

    const created = await harness.call<RecordBody>('POST', setup.path(setup.products), {
      body: { fields: { Name: 'Chair', Supplier: [setup.nordwind] } },
    });
    expect(await cell(setup, setup.suppliers, setup.nordwind, inverseId)).toEqual([setup.lamp, created.body.id]);
    await harness.call('DELETE', `${setup.path(setup.products)}/${created.body.id}`);
    expect(await cell(setup, setup.suppliers, setup.nordwind, inverseId)).toEqual([setup.lamp]);
  });

  it('emits the second side as record updates of the linked table, after the write, with the same actor', async () => {
    const setup = addBase();
    const field = await addLink(setup);
    const inverseId = field.options?.inverseLinkFieldId as string;
    const hook = await createHook(harness, setup.baseId, {
      specification: { options: { filters: { dataTypes: ['tableData'] }, includes: { includePreviousCellValues: true } } },
    });
    const seen = changes.length;

    await harness.call('PATCH', `${setup.path(setup.products)}/${setup.lamp}`, {
      headers: { 'X-Sandbox-Source': 'client', 'X-Sandbox-User-Email': 'ada@example.com' },
      body: { fields: { Supplier: [setup.nordwind] } },
    });
    await harness.call('PATCH', `${setup.path(setup.products)}/${setup.lamp}`, { body: { fields: { Supplier: [setup.bluepeak] } } });

    const emitted = changes.slice(seen);
    expect(emitted.map((change) => [change.kind, change.tableId])).toEqual([
      ['recordsUpdated', setup.products.id],
      ['recordsUpdated', setup.suppliers.id],
      ['recordsUpdated', setup.products.id],
      ['recordsUpdated', setup.suppliers.id],
    ]);
    expect(emitted[1]).toMatchObject({
      actor: { source: 'client', user: { email: 'ada@example.com' } },
      records: [{ id: setup.nordwind, changedFieldIds: [inverseId], previous: { [setup.suppliers.primaryFieldId]: 'Nordwind' } }],
    });
    expect(emitted[3]).toMatchObject({
      records: [
        { id: setup.nordwind, changedFieldIds: [inverseId], current: { [setup.suppliers.primaryFieldId]: 'Nordwind' } },
        { id: setup.bluepeak, changedFieldIds: [inverseId], current: { [inverseId]: [setup.lamp] } },
      ],
    });

    const { payloads } = await payloadsOf(harness, setup.baseId, hook.id);
    const tables = payloads.map((payload: WebhookPayload) => payload.changedTablesById ?? {});
    expect(tables.map((changed) => Object.keys(changed))).toEqual([
      [setup.products.id],
      [setup.suppliers.id],
      [setup.products.id],
      [setup.suppliers.id],
    ]);
    expect(tables[3][setup.suppliers.id].changedRecordsById).toEqual({
      [setup.nordwind]: {
        current: { cellValuesByFieldId: { [inverseId]: null } },
        previous: { cellValuesByFieldId: { [inverseId]: [{ id: setup.lamp, name: 'Lamp' }] } },
      },
      [setup.bluepeak]: {
        current: { cellValuesByFieldId: { [inverseId]: [{ id: setup.lamp, name: 'Lamp' }] } },
        previous: { cellValuesByFieldId: { [inverseId]: null } },
      },
    });
  });

  it('refuses a link to a record that is not in the linked table, and writes nothing', async () => {
    const setup = addBase();
    await addLink(setup);
    const seen = changes.length;
    const response = await harness.call('PATCH', setup.path(setup.products), {
      body: {
        records: [
          { id: setup.lamp, fields: { Supplier: [setup.nordwind] } },
          { id: setup.desk, fields: { Supplier: ['recAAAAAAAAAAAAAA'] } },
        ],
      },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toEqual({
      type: 'ROW_DOES_NOT_EXIST',
      message: 'Record ID recAAAAAAAAAAAAAA does not exist in this table',
    });
    const product = await harness.call('POST', setup.path(setup.products), { body: { fields: { Supplier: [setup.lamp] } } });
    expect(product.body.error.type).toBe('ROW_DOES_NOT_EXIST');
    expect(changes.length).toBe(seen);
    expect(harness.sandbox.store.getRecord(setup.baseId, 'Products', setup.lamp)?.cellsByFieldId).toEqual({
      [setup.products.primaryFieldId]: 'Lamp',
    });
  });

  it('deletes the inverse field with its link field, and the inverse fields of a deleted table', async () => {
    const setup = addBase();
    const field = await addLink(setup);
    await harness.call('PATCH', `${setup.path(setup.products)}/${setup.lamp}`, { body: { fields: { Supplier: [setup.nordwind] } } });
    const seen = changes.length;

    const deleted = await harness.call('DELETE', `${setup.meta}/${setup.products.id}/fields/${field.id}`);
    expect(deleted.status).toBe(200);
    expect(changes.slice(seen).map((change) => [change.kind, change.tableId])).toEqual([
      ['fieldDeleted', setup.products.id],
      ['fieldDeleted', setup.suppliers.id],
    ]);
    expect((await schemaOf(setup.baseId)).map((table) => table.fields.map((candidate) => candidate.name))).toEqual([['Name'], ['Name']]);
    expect(harness.sandbox.store.getRecord(setup.baseId, 'Suppliers', setup.nordwind)?.cellsByFieldId).toEqual({
      [setup.suppliers.primaryFieldId]: 'Nordwind',
    });

    const again = await addLink(setup);
    const inverseId = again.options?.inverseLinkFieldId as string;
    await harness.call('DELETE', `${setup.meta}/${setup.suppliers.id}/fields/${inverseId}`);
    expect((await schemaOf(setup.baseId))[1].fields.map((candidate) => candidate.name)).toEqual(['Name']);

    await addLink(setup);
    const afterTable = changes.length;
    await harness.call('DELETE', `${setup.meta}/${setup.products.id}`);
    expect(changes.slice(afterTable).map((change) => [change.kind, change.tableId])).toEqual([
      ['tableDeleted', setup.products.id],
      ['fieldDeleted', setup.suppliers.id],
    ]);
    expect((await schemaOf(setup.baseId))[0].fields.map((candidate) => candidate.name)).toEqual(['Name']);
  });

  it('drops a deleted record from the links to it in its own table', async () => {
    const setup = addBase();
    const related = await harness.call<FieldBody>('POST', `${setup.meta}/${setup.products.id}/fields`, {
      body: { name: 'Related', type: 'multipleRecordLinks', options: { linkedTableId: setup.products.id } },
    });
    await harness.call('PATCH', `${setup.path(setup.products)}/${setup.lamp}`, { body: { fields: { Related: [setup.desk, setup.lamp] } } });
    expect(await cell(setup, setup.products, setup.desk, related.body.id)).toBeUndefined();
    const seen = changes.length;

    await harness.call('DELETE', `${setup.path(setup.products)}/${setup.desk}`);
    expect(await cell(setup, setup.products, setup.lamp, related.body.id)).toEqual([setup.lamp]);
    expect(changes.slice(seen).map((change) => change.kind)).toEqual(['recordsDeleted', 'recordsUpdated']);
  });

  it('seeds links with their inverse values, with the same ids on every start', () => {
    const suppliersTable: TableDefinition = {
      name: 'Suppliers',
      fields: [{ name: 'Name', type: 'singleLineText' }],
      records: [{ Name: 'A' }],
    };
    const seed = (tables: TableDefinition[]) => {
      const sandbox = createSandbox({ token: 't', demo: false, seed: 7 });
      const base = sandbox.store.addBase({ name: 'Seeded', tables }, { createdTimeStart: new Date('2024-01-01T00:00:00Z') });
      sandbox.close();
      return base;
    };
    // Suppliers' ids come before anything of Products, so a first start tells which ids Products can link to.
    const [suppliers] = seed([suppliersTable]).tables;
    const supplierId = [...suppliers.records.keys()][0];
    const products: TableDefinition = {
      name: 'Products',
      fields: [
        { name: 'Name', type: 'singleLineText' },
        { name: 'Supplier', type: 'multipleRecordLinks', options: { linkedTableId: suppliers.id } },
      ],
      records: [
        { Name: 'P', Supplier: [supplierId] },
        { Name: 'Q', Supplier: [supplierId] },
      ],
    };

    const linked = seed([suppliersTable, products]);
    const [seededSuppliers, seededProducts] = linked.tables;
    expect(seededSuppliers.id).toBe(suppliers.id);
    const inverse = seededSuppliers.fields[1];
    expect(inverse).toMatchObject({
      name: 'Products',
      options: { linkedTableId: seededProducts.id, inverseLinkFieldId: seededProducts.fields[1].id },
    });
    expect(seededSuppliers.records.get(supplierId)?.cellsByFieldId[inverse.id]).toEqual([...seededProducts.records.keys()]);
    expect(seed([suppliersTable, products])).toEqual(linked);
  });
});
