import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { allChanges, AUDIT_APP_ENV, eventually, logCatalogSuppliers, relaxSandboxRateLimit, type ChangeRecord } from './audit-support.js';

/**
 * A link set or cleared on one record also changes the inverse cell of the linked record (the sandbox emits that
 * second side as its own record update, as the platform does): the log gets one entry per record, never two.
 */
describe('audit log of record links', () => {
  let app: TestApp;
  let api: SandboxApi;
  let baseId: string;
  let configId: string;
  let suppliersId: string;

  beforeAll(async () => {
    app = await startTestApp(AUDIT_APP_ENV);
    relaxSandboxRateLimit(app);
    api = sandboxApi(app.url);
    ({ baseId, configId, tableId: suppliersId } = await logCatalogSuppliers(app, api));
  });
  afterAll(() => app?.close());

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
    const products = (await api.schema(baseId)).find((table) => table.name === 'Products')!;
    const link = await api.createField(baseId, products.id, {
      name: 'Supplier',
      type: 'multipleRecordLinks',
      options: { linkedTableId: suppliersId },
    });
    const inverseId = link.options.inverseLinkFieldId as string;
    const [product] = (await api.listRecords(baseId, products.id, '?pageSize=1')).records;
    const [supplier] = (await api.listRecords(baseId, suppliersId, '?pageSize=1')).records;
    const productName = product.fields[products.fields[0]!.name] as string;
    const supplierName = supplier.fields.Name as string;
    const actor = { source: 'client', email: 'lin@example.com', name: 'Lin' };

    await api.updateRecords(baseId, products.id, [{ id: product.id, fields: { Supplier: [supplier.id] } }], actor);
    await api.updateRecords(baseId, products.id, [{ id: product.id, fields: { Supplier: [] } }], actor);

    const records = await eventually(
      () => allChanges(app.http, configId),
      (list) => list.length >= 4,
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const settled = await allChanges(app.http, configId);
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
