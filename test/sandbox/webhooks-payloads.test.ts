import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  automationIdFor,
  formPageIdFor,
  formViewIdFor,
  SANDBOX_API_USER,
  userFromEmail,
  type SandboxTable,
} from '../../src/sandbox/index.js';
import type { WebhookSpecification } from '../../src/upstream/webhook-types.js';
import { startSandbox, type RecordBody, type SandboxHarness } from './sandbox-harness.js';
import { addHooksBase, createHook, manualClock, payloadsOf } from './webhook-harness.js';

const everything: WebhookSpecification = {
  options: {
    filters: { dataTypes: ['tableData', 'tableFields', 'tableMetadata'] },
    includes: { includePreviousCellValues: true, includePreviousFieldDefinitions: true },
  },
};

/** The inverse field the Products → Suppliers link added to Suppliers. */
function linkedField(suppliers: SandboxTable) {
  return suppliers.fields.find((field) => field.type === 'multipleRecordLinks')!;
}

describe('sandbox webhook payloads', () => {
  let harness: SandboxHarness;
  const clock = manualClock();

  beforeAll(async () => {
    harness = await startSandbox({ demo: false, now: clock.now });
  });

  afterAll(async () => {
    harness.sandbox.close();
    await harness.close();
  });

  async function setUp() {
    const hooks = addHooksBase(harness);
    const { id } = await createHook(harness, hooks.baseId, { specification: everything });
    return { ...hooks, webhookId: id, meta: `/v0/meta/bases/${hooks.baseId}/tables` };
  }

  it('reports created records with V2 cell values', async () => {
    const { baseId, webhookId, products, suppliers, field, path } = await setUp();
    const nordwind = [...suppliers.records.values()][0];
    const status = field('Status').options?.choices as Array<{ id: string; name: string }>;
    const tags = field('Tags').options?.choices as Array<{ id: string; name: string }>;

    const created = await harness.call<RecordBody>('POST', path(products), {
      body: {
        fields: {
          Name: 'Lamp',
          Price: 12.5,
          Status: 'Active',
          Tags: ['new', 'sale'],
          Supplier: [nordwind.id],
          Owner: { email: 'ada@example.com', name: 'Ada' },
          Photos: [{ url: 'https://files.example.com/lamp.png' }],
        },
      },
    });

    // The link's second side (Nordwind's inverse cell) follows in a payload of its own.
    const [payload, linked] = (await payloadsOf(harness, baseId, webhookId)).payloads;
    expect(linked.changedTablesById).toEqual({
      [suppliers.id]: {
        changedRecordsById: {
          [nordwind.id]: {
            current: { cellValuesByFieldId: { [linkedField(suppliers).id]: [{ id: created.body.id, name: 'Lamp' }] } },
            previous: { cellValuesByFieldId: { [linkedField(suppliers).id]: null } },
          },
        },
      },
    });
    expect(payload).toMatchObject({ payloadFormat: 'v0', timestamp: new Date(clock.now()).toISOString() });
    expect(payload.baseTransactionNumber).toBeGreaterThan(0);
    const cells = payload.changedTablesById?.[products.id].createdRecordsById?.[created.body.id];
    expect(cells?.createdTime).toBe(created.body.createdTime);
    expect(cells?.cellValuesByFieldId).toEqual({
      [field('Name').id]: 'Lamp',
      [field('Price').id]: 12.5,
      [field('Status').id]: { id: status[0].id, name: 'Active', color: 'greenBright' },
      [field('Tags').id]: [
        { id: tags[0].id, name: 'new' },
        { id: tags[1].id, name: 'sale', color: 'redBright' },
      ],
      [field('Supplier').id]: [{ id: nordwind.id, name: 'Nordwind' }],
      [field('Owner').id]: { id: userFromEmail('ada@example.com').id, email: 'ada@example.com', name: 'Ada' },
      [field('Photos').id]: [expect.objectContaining({ filename: 'lamp.png', url: expect.stringMatching(/^https:\/\//) })],
    });
  });

  it('reports changed records with current and previous values, a cleared cell as null', async () => {
    const { baseId, webhookId, products, field, path } = await setUp();
    const created = await harness.call<RecordBody>('POST', path(products), { body: { fields: { Name: 'Lamp', Notes: 'old' } } });
    const first = await payloadsOf(harness, baseId, webhookId);

    await harness.call('PATCH', `${path(products)}/${created.body.id}`, { body: { fields: { Name: 'Desk lamp', Notes: null } } });

    const { payloads } = await payloadsOf(harness, baseId, webhookId, `?cursor=${first.cursor}`);
    expect(payloads).toHaveLength(1);
    expect(payloads[0].baseTransactionNumber).toBeGreaterThan(first.payloads[0].baseTransactionNumber);
    expect(payloads[0].changedTablesById?.[products.id].changedRecordsById?.[created.body.id]).toEqual({
      current: { cellValuesByFieldId: { [field('Name').id]: 'Desk lamp', [field('Notes').id]: null } },
      previous: { cellValuesByFieldId: { [field('Name').id]: 'Lamp', [field('Notes').id]: 'old' } },
    });
  });

  it('reports destroyed records', async () => {
    const { baseId, webhookId, products, path } = await setUp();
    const created = await harness.call<{ records: RecordBody[] }>('POST', path(products), {
      body: { records: [{ fields: { Name: 'a' } }, { fields: { Name: 'b' } }] },
    });
    const ids = created.body.records.map((record) => record.id);
    const { cursor } = await payloadsOf(harness, baseId, webhookId);

    await harness.call('DELETE', `${path(products)}?records[]=${ids[0]}&records[]=${ids[1]}`);

    const { payloads } = await payloadsOf(harness, baseId, webhookId, `?cursor=${cursor}`);
    expect(payloads.map((payload) => payload.changedTablesById)).toEqual([{ [products.id]: { destroyedRecordIds: ids } }]);
  });

  it('reports created, changed and destroyed fields', async () => {
    const { baseId, webhookId, products, meta } = await setUp();
    const created = await harness.call<{ id: string }>('POST', `${meta}/${products.id}/fields`, {
      body: { name: 'Weight', type: 'number', options: { precision: 1 } },
    });
    await harness.call('PATCH', `${meta}/${products.id}/fields/${created.body.id}`, { body: { name: 'Weight (kg)', description: 'Net' } });
    await harness.call('DELETE', `${meta}/${products.id}/fields/${created.body.id}`);

    const { payloads } = await payloadsOf(harness, baseId, webhookId);
    expect(payloads.map((payload) => payload.changedTablesById?.[products.id])).toEqual([
      { createdFieldsById: { [created.body.id]: { name: 'Weight', type: 'number' } } },
      {
        changedFieldsById: {
          [created.body.id]: { current: { name: 'Weight (kg)', description: 'Net' }, previous: { name: 'Weight', description: null } },
        },
      },
      { destroyedFieldIds: [created.body.id] },
    ]);
  });

  it('reports created, renamed and destroyed tables', async () => {
    const { baseId, webhookId, meta } = await setUp();
    const created = await harness.call<{ id: string; fields: Array<{ id: string }> }>('POST', meta, {
      body: { name: 'Orders', fields: [{ name: 'Order', type: 'singleLineText' }] },
    });
    const tableId = created.body.id;
    await harness.call('PATCH', `${meta}/${tableId}`, { body: { name: 'Purchase orders', description: 'From the shop' } });
    await harness.call('DELETE', `${meta}/${tableId}`);

    const { payloads } = await payloadsOf(harness, baseId, webhookId);
    expect(payloads[0].createdTablesById).toEqual({
      [tableId]: {
        metadata: { name: 'Orders', description: null },
        fieldsById: { [created.body.fields[0].id]: { name: 'Order', type: 'singleLineText' } },
      },
    });
    expect(payloads[1].changedTablesById).toEqual({
      [tableId]: {
        changedMetadata: {
          current: { name: 'Purchase orders', description: 'From the shop' },
          previous: { name: 'Orders', description: null },
        },
      },
    });
    expect(payloads[2].destroyedTableIds).toEqual([tableId]);
    expect(payloads.map((payload) => payload.baseTransactionNumber)).toEqual(
      [...payloads.map((payload) => payload.baseTransactionNumber)].sort((a, b) => a - b),
    );
    expect(new Set(payloads.map((payload) => payload.baseTransactionNumber)).size).toBe(3);
  });

  it('shapes actionMetadata per X-Sandbox-Source', async () => {
    const { baseId, webhookId, products, path } = await setUp();
    const sources: Array<Record<string, string>> = [
      {},
      { 'X-Sandbox-Source': 'client', 'X-Sandbox-User-Email': 'grace@example.com', 'X-Sandbox-User-Name': 'Grace' },
      { 'X-Sandbox-Source': 'formSubmission' },
      { 'X-Sandbox-Source': 'formPageSubmission' },
      { 'X-Sandbox-Source': 'automation', 'X-Sandbox-User-Email': 'bot@example.com' },
      { 'X-Sandbox-Source': 'system' },
      { 'X-Sandbox-Source': 'sync' },
      { 'X-Sandbox-Source': 'anonymousUser' },
    ];
    for (const headers of sources) await harness.call('POST', path(products), { headers, body: { fields: { Name: 'x' } } });

    const { payloads } = await payloadsOf(harness, baseId, webhookId);
    const grace = userFromEmail('grace@example.com', 'Grace');
    expect(payloads.map((payload) => payload.actionMetadata)).toEqual([
      { source: 'publicApi', sourceMetadata: { user: { ...SANDBOX_API_USER, permissionLevel: 'create' } } },
      {
        source: 'client',
        sourceMetadata: { user: { id: grace.id, email: 'grace@example.com', name: 'Grace', permissionLevel: 'create' } },
      },
      { source: 'formSubmission', sourceMetadata: { viewId: formViewIdFor(products.id) } },
      { source: 'formPageSubmission', sourceMetadata: { pageId: formPageIdFor(baseId) } },
      { source: 'automation', sourceMetadata: { automationId: automationIdFor(baseId) } },
      { source: 'system' },
      { source: 'sync' },
      { source: 'anonymousUser' },
    ]);
    expect(formViewIdFor(products.id)).toMatch(/^viw[A-Za-z0-9]{14}$/);
    expect(formPageIdFor(baseId)).toMatch(/^pag[A-Za-z0-9]{14}$/);
    expect(automationIdFor(baseId)).toMatch(/^wfl[A-Za-z0-9]{14}$/);
  });

  it('creates no payload when a write changes nothing', async () => {
    const { baseId, webhookId, products, path } = await setUp();
    const created = await harness.call<RecordBody>('POST', path(products), { body: { fields: { Name: 'same' } } });
    await harness.call('PATCH', `${path(products)}/${created.body.id}`, { body: { fields: { Name: 'same' } } });

    const { payloads } = await payloadsOf(harness, baseId, webhookId);
    expect(payloads).toHaveLength(1);
    expect(Object.keys(payloads[0].changedTablesById?.[products.id].createdRecordsById ?? {})).toEqual([created.body.id]);
  });
});
