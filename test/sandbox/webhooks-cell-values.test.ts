import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookSpecification } from '../../src/upstream/webhook-types.js';
import { startSandbox, type RecordBody, type SandboxHarness } from './sandbox-harness.js';
import { addHooksBase, createHook, payloadsOf } from './webhook-harness.js';

/** What a mirror asks for (issue 25 §1): every cell, and the previous values of changed ones. */
const mirrorSpecification: WebhookSpecification = {
  options: {
    filters: { dataTypes: ['tableData'] },
    includes: { includeCellValuesInFieldIds: 'all', includePreviousCellValues: true },
  },
};

describe('sandbox webhook cell values for a mirror specification', () => {
  let harness: SandboxHarness;

  beforeAll(async () => {
    harness = await startSandbox({ demo: false });
  });

  afterAll(async () => {
    harness.sandbox.close();
    await harness.close();
  });

  it('carries created cells, changed current/previous, unchanged included cells, and destroyed ids only', async () => {
    const hooks = addHooksBase(harness, 'Mirror hooks');
    const { products, field, path } = hooks;
    const { id: webhookId } = await createHook(harness, hooks.baseId, { specification: mirrorSpecification });
    const [name, price, status, notes] = ['Name', 'Price', 'Status', 'Notes'].map((fieldName) => field(fieldName).id);
    const active = (field('Status').options!.choices as Array<{ id: string; name: string; color?: string }>)[0];

    const created = await harness.call<{ records: RecordBody[] }>('POST', path(products), {
      body: {
        records: [{ fields: { Name: 'Lamp', Price: 10, Status: 'Active', Notes: 'old' } }, { fields: { Name: 'Desk', Price: 99 } }],
      },
    });
    const [lamp, desk] = created.body.records;
    await harness.call('PATCH', path(products), {
      body: {
        records: [
          { id: lamp.id, fields: { Price: 12, Notes: null } },
          { id: desk.id, fields: { Name: 'Standing desk' } },
        ],
      },
    });
    await harness.call('DELETE', `${path(products)}?records[]=${lamp.id}`);

    const [createdPayload, changedPayload, destroyedPayload] = (await payloadsOf(harness, hooks.baseId, webhookId)).payloads.map(
      (payload) => payload.changedTablesById?.[products.id],
    );
    // Webhooks table changed / created record (airtable.com/developers/web/api/model/webhooks-table-changed): every
    // non-empty cell of the new record in the V2 format, with its createdTime.
    expect(createdPayload).toEqual({
      createdRecordsById: {
        [lamp.id]: {
          createdTime: lamp.createdTime,
          cellValuesByFieldId: {
            [name]: 'Lamp',
            [price]: 10,
            [status]: { id: active.id, name: 'Active', color: 'greenBright' },
            [notes]: 'old',
          },
        },
        [desk.id]: { createdTime: desk.createdTime, cellValuesByFieldId: { [name]: 'Desk', [price]: 99 } },
      },
    });
    // Webhooks changed record: `current` and `previous` hold the changed fields (a cleared cell is null), `unchanged`
    // the included fields that did not change.
    expect(changedPayload).toEqual({
      changedRecordsById: {
        [lamp.id]: {
          current: { cellValuesByFieldId: { [price]: 12, [notes]: null } },
          previous: { cellValuesByFieldId: { [price]: 10, [notes]: 'old' } },
          unchanged: { cellValuesByFieldId: { [name]: 'Lamp', [status]: { id: active.id, name: 'Active', color: 'greenBright' } } },
        },
        [desk.id]: {
          current: { cellValuesByFieldId: { [name]: 'Standing desk' } },
          previous: { cellValuesByFieldId: { [name]: 'Desk' } },
          unchanged: { cellValuesByFieldId: { [price]: 99 } },
        },
      },
    });
    expect(destroyedPayload).toEqual({ destroyedRecordIds: [lamp.id] });
  });

  it('limits unchanged to the listed fields and leaves previous out unless asked', async () => {
    const hooks = addHooksBase(harness, 'Listed hooks');
    const { products, field, path } = hooks;
    const [name, price] = ['Name', 'Price'].map((fieldName) => field(fieldName).id);
    const { id: webhookId } = await createHook(harness, hooks.baseId, {
      specification: {
        options: { filters: { dataTypes: ['tableData'], changeTypes: ['update'] }, includes: { includeCellValuesInFieldIds: [name] } },
      },
    });
    const lamp = (await harness.call<RecordBody>('POST', path(products), { body: { fields: { Name: 'Lamp', Price: 10, Notes: 'n' } } }))
      .body;

    await harness.call('PATCH', `${path(products)}/${lamp.id}`, { body: { fields: { Price: 11 } } });
    await harness.call('PATCH', `${path(products)}/${lamp.id}`, { body: { fields: { Name: 'Lamp 2' } } });

    const changes = (await payloadsOf(harness, hooks.baseId, webhookId)).payloads.map(
      (payload) => payload.changedTablesById?.[products.id].changedRecordsById?.[lamp.id],
    );
    expect(changes[0]).toEqual({
      current: { cellValuesByFieldId: { [price]: 11 } },
      unchanged: { cellValuesByFieldId: { [name]: 'Lamp' } },
    });
    // The only listed field changed: it is under `current`, never repeated under `unchanged`.
    expect(changes[1]?.current).toEqual({ cellValuesByFieldId: { [name]: 'Lamp 2' } });
    expect(changes[1]?.previous).toBeUndefined();
    expect(changes[1]?.unchanged?.cellValuesByFieldId ?? {}).toEqual({});
  });
});
