import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formViewIdFor, MAX_WEBHOOKS_PER_BASE } from '../../src/sandbox/index.js';
import type { WebhookFilters, WebhookIncludes } from '../../src/upstream/webhook-types.js';
import { startSandbox, type ErrorBody, type RecordBody, type SandboxHarness } from './sandbox-harness.js';
import { addHooksBase, createHook, hooksPath, payloadsOf, type HooksBase } from './webhook-harness.js';

describe('sandbox webhook specification', () => {
  let harness: SandboxHarness;

  beforeAll(async () => {
    harness = await startSandbox({ demo: false });
  });

  afterAll(async () => {
    harness.sandbox.close();
    await harness.close();
  });

  async function hookOn(hooks: HooksBase, filters: WebhookFilters, includes?: WebhookIncludes) {
    const { id } = await createHook(harness, hooks.baseId, { specification: { options: { filters, includes } } });
    return { payloads: async () => (await payloadsOf(harness, hooks.baseId, id)).payloads };
  }

  async function createProduct(hooks: HooksBase, fields: Record<string, unknown>, headers?: Record<string, string>) {
    return (await harness.call<RecordBody>('POST', hooks.path(hooks.products), { body: { fields }, headers })).body;
  }

  const meta = (hooks: HooksBase) => `/v0/meta/bases/${hooks.baseId}/tables`;

  it('reports only the chosen data types', async () => {
    const hooks = addHooksBase(harness);
    const data = await hookOn(hooks, { dataTypes: ['tableData'] });
    const fields = await hookOn(hooks, { dataTypes: ['tableFields'] });
    const metadata = await hookOn(hooks, { dataTypes: ['tableMetadata'] });

    await createProduct(hooks, { Name: 'a' });
    await harness.call('POST', `${meta(hooks)}/${hooks.products.id}/fields`, { body: { name: 'Size', type: 'singleLineText' } });
    await harness.call('PATCH', `${meta(hooks)}/${hooks.products.id}`, { body: { name: 'Goods' } });

    const keysOf = async (hook: typeof data) =>
      (await hook.payloads()).map((payload) => Object.keys(payload.changedTablesById?.[hooks.products.id] ?? {}));
    expect(await keysOf(data)).toEqual([['createdRecordsById']]);
    expect(await keysOf(fields)).toEqual([['createdFieldsById']]);
    expect(await keysOf(metadata)).toEqual([['changedMetadata']]);
  });

  it('limits record changes to the table or view of recordChangeScope', async () => {
    const hooks = addHooksBase(harness);
    const byTable = await hookOn(hooks, { dataTypes: ['tableData'], recordChangeScope: hooks.suppliers.id });
    const viewId = hooks.suppliers.views[0].id;
    const byView = await hookOn(hooks, { dataTypes: ['tableData'], recordChangeScope: viewId });

    await createProduct(hooks, { Name: 'ignored' });
    const supplier = await harness.call<RecordBody>('POST', hooks.path(hooks.suppliers), { body: { fields: { Name: 'Ironleaf' } } });

    const [payload] = await byTable.payloads();
    expect((await byTable.payloads()).length).toBe(1);
    expect(Object.keys(payload.changedTablesById ?? {})).toEqual([hooks.suppliers.id]);
    const [viewPayload] = await byView.payloads();
    const created = { [supplier.body.id]: { createdTime: supplier.body.createdTime, cellValuesByFieldId: expect.any(Object) } };
    expect(viewPayload.changedTablesById?.[hooks.suppliers.id]).toEqual({
      createdRecordsById: created,
      changedViewsById: { [viewId]: { createdRecordsById: created } },
    });
  });

  it('filters by changeTypes and fromSources', async () => {
    const hooks = addHooksBase(harness);
    const removals = await hookOn(hooks, { dataTypes: ['tableData'], changeTypes: ['remove'] });
    const fromForms = await hookOn(hooks, { dataTypes: ['tableData'], fromSources: ['formSubmission', 'sync'] });
    const fromThisForm = await hookOn(hooks, {
      dataTypes: ['tableData'],
      sourceOptions: { formSubmission: { viewId: formViewIdFor(hooks.suppliers.id) } },
    });

    const record = await createProduct(hooks, { Name: 'by form' }, { 'X-Sandbox-Source': 'formSubmission' });
    await createProduct(hooks, { Name: 'by api' });
    await harness.call('DELETE', `${hooks.path(hooks.products)}/${record.id}`, { headers: { 'X-Sandbox-Source': 'sync' } });

    expect((await removals.payloads()).map((payload) => payload.changedTablesById?.[hooks.products.id])).toEqual([
      { destroyedRecordIds: [record.id] },
    ]);
    expect((await fromForms.payloads()).map((payload) => payload.actionMetadata.source)).toEqual(['formSubmission', 'sync']);
    // The form named in sourceOptions belongs to Suppliers, so only the API's write and the sync pass.
    expect((await fromThisForm.payloads()).map((payload) => payload.actionMetadata.source)).toEqual(['publicApi', 'sync']);
  });

  it('reports a changed record only when a watched field changed, with unchanged values on request', async () => {
    const hooks = addHooksBase(harness);
    const price = hooks.field('Price').id;
    const name = hooks.field('Name').id;
    const status = hooks.field('Status').id;
    const watched = await hookOn(
      hooks,
      { dataTypes: ['tableData'], watchDataInFieldIds: [price] },
      { includeCellValuesInFieldIds: [name] },
    );
    const all = await hookOn(hooks, { dataTypes: ['tableData'], changeTypes: ['update'] }, { includeCellValuesInFieldIds: 'all' });
    const record = await createProduct(hooks, { Name: 'Lamp', Price: 10, Status: 'Active' });

    await harness.call('PATCH', `${hooks.path(hooks.products)}/${record.id}`, { body: { fields: { Name: 'Desk lamp' } } });
    await harness.call('PATCH', `${hooks.path(hooks.products)}/${record.id}`, { body: { fields: { Price: 12 } } });

    const watchedChanges = (await watched.payloads()).map((payload) => payload.changedTablesById?.[hooks.products.id]);
    expect(watchedChanges).toEqual([
      { createdRecordsById: { [record.id]: expect.any(Object) } },
      {
        changedRecordsById: {
          [record.id]: { current: { cellValuesByFieldId: { [price]: 12 } }, unchanged: { cellValuesByFieldId: { [name]: 'Desk lamp' } } },
        },
      },
    ]);
    const [firstUpdate] = await all.payloads();
    expect(firstUpdate.changedTablesById?.[hooks.products.id].changedRecordsById?.[record.id]).toEqual({
      current: { cellValuesByFieldId: { [name]: 'Desk lamp' } },
      unchanged: { cellValuesByFieldId: { [price]: 10, [status]: expect.objectContaining({ name: 'Active' }) } },
    });
  });

  it('reports schema changes only of watchSchemasOfFieldIds, previous definitions on request', async () => {
    const hooks = addHooksBase(harness);
    const notes = hooks.field('Notes').id;
    const watched = await hookOn(hooks, { dataTypes: ['tableFields'], watchSchemasOfFieldIds: [notes] });
    const fieldsPath = `${meta(hooks)}/${hooks.products.id}/fields`;

    await harness.call('POST', fieldsPath, { body: { name: 'Size', type: 'singleLineText' } });
    await harness.call('PATCH', `${fieldsPath}/${hooks.field('Price').id}`, { body: { name: 'Cost' } });
    await harness.call('PATCH', `${fieldsPath}/${notes}`, { body: { name: 'Remarks' } });

    expect((await watched.payloads()).map((payload) => payload.changedTablesById?.[hooks.products.id])).toEqual([
      { changedFieldsById: { [notes]: { current: { name: 'Remarks' } } } },
    ]);
  });

  it('refuses specifications the platform refuses, with 422 bodies', async () => {
    const hooks = addHooksBase(harness);
    const attempt = async (body: unknown) => {
      const response = await harness.call<ErrorBody>('POST', hooksPath(hooks.baseId), { body });
      return { status: response.status, type: response.body.error.type, message: response.body.error.message };
    };
    const refusals = [
      await attempt({ specification: { options: { filters: {} } } }),
      await attempt({ specification: { options: { filters: { dataTypes: [] } } } }),
      await attempt({ specification: { options: { filters: { dataTypes: ['records'] } } } }),
      await attempt({ specification: { options: { filters: { dataTypes: ['tableData'], recordChangeScope: 'Products' } } } }),
      await attempt({ specification: { options: { filters: { dataTypes: ['tableData'], watchDataInFieldIds: ['Price'] } } } }),
      await attempt({ specification: { options: { filters: { dataTypes: ['tableData'], watchDataInFieldIds: ['fldAAAAAAAAAAAAAA'] } } } }),
      await attempt({ specification: { options: { filters: { dataTypes: ['tableData'] }, extra: true } } }),
      await attempt({ notificationUrl: 'ftp://example.com', specification: { options: { filters: { dataTypes: ['tableData'] } } } }),
    ];
    for (const refusal of refusals) expect(refusal).toMatchObject({ status: 422, type: 'INVALID_REQUEST_UNKNOWN' });
    expect(refusals[3].message).toMatch(/id, not a name/);
    expect(refusals[4].message).toMatch(/field ids, not names/);

    const unknownBase = await harness.call<ErrorBody>('POST', hooksPath('appAAAAAAAAAAAAAA'), {
      body: { specification: { options: { filters: { dataTypes: ['tableData'] } } } },
    });
    expect(unknownBase.status).toBe(403);
    expect((await harness.call<{ webhooks: unknown[] }>('GET', hooksPath(hooks.baseId))).body.webhooks).toEqual([]);
  });

  it(`allows at most ${MAX_WEBHOOKS_PER_BASE} webhooks per base`, async () => {
    const hooks = addHooksBase(harness);
    const specification = { options: { filters: { dataTypes: ['tableData' as const] } } };
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOKS_PER_BASE; i++) ids.push((await createHook(harness, hooks.baseId, { specification })).id);

    const refused = await harness.call<ErrorBody>('POST', hooksPath(hooks.baseId), { body: { specification } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.type).toBe('TOO_MANY_WEBHOOKS_IN_BASE');
    const otherBase = addHooksBase(harness, 'Other');
    expect((await harness.call('POST', hooksPath(otherBase.baseId), { body: { specification } })).status).toBe(200);

    expect((await harness.call('DELETE', hooksPath(hooks.baseId, ids[0]))).status).toBe(200);
    expect((await harness.call('POST', hooksPath(hooks.baseId), { body: { specification } })).status).toBe(200);
  });
});
