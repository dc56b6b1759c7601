import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RecordBody, type SandboxHarness } from './sandbox-harness.js';

/**
 * airtable-api.md §2: create, update and delete take at most 10 records a request; more is 422 INVALID_RECORDS.
 * The create and delete messages are quoted from public reports; the update message follows the create one.
 */
describe('sandbox batch limits', () => {
  let harness: SandboxHarness;
  let path: string;

  beforeAll(async () => {
    harness = await startSandbox({ demo: false });
    const base = harness.sandbox.store.addBase({
      name: 'Batches',
      tables: [{ name: 'Items', fields: [{ name: 'Name', type: 'singleLineText' }] }],
    });
    path = `/v0/${base.id}/${base.tables[0].id}`;
  });

  afterAll(() => harness.close());

  const names = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => ({ fields: { Name: `${prefix}${index}` } }));
  const listNames = async () =>
    (await harness.call<{ records: RecordBody[] }>('GET', path)).body.records.map((record) => record.fields.Name).sort();

  it('creates, updates and deletes 10 records in one request', async () => {
    const created = await harness.call<{ records: RecordBody[] }>('POST', path, { body: { records: names(10, 'c') } });
    expect(created.status).toBe(200);
    const ids = created.body.records.map((record) => record.id);
    for (const method of ['PATCH', 'PUT']) {
      const updated = await harness.call<{ records: RecordBody[] }>(method, path, {
        body: { records: ids.map((id, index) => ({ id, fields: { Name: `${method}${index}` } })) },
      });
      expect([method, updated.status, updated.body.records.length]).toEqual([method, 200, 10]);
    }
    const deleted = await harness.call<{ records: unknown[] }>('DELETE', `${path}?${ids.map((id) => `records[]=${id}`).join('&')}`);
    expect(deleted.body.records).toHaveLength(10);
    expect(await listNames()).toEqual([]);
  });

  it('refuses 11 records on create, PATCH, PUT and delete, writing nothing', async () => {
    const created = await harness.call<{ records: RecordBody[] }>('POST', path, { body: { records: names(10, 'k') } });
    const ids = created.body.records.map((record) => record.id);
    const before = await listNames();

    const tooManyCreates = await harness.call('POST', path, { body: { records: names(11, 'x') } });
    expect(tooManyCreates).toEqual({
      status: 422,
      body: { error: { type: 'INVALID_RECORDS', message: 'A maximum of 10 records can be created per request but you have provided 11.' } },
    });
    const eleven = [...ids, ids[0]].map((id) => ({ id, fields: { Name: 'changed' } }));
    for (const method of ['PATCH', 'PUT']) {
      const refused = await harness.call(method, path, { body: { records: eleven } });
      expect([method, refused]).toEqual([
        method,
        {
          status: 422,
          body: {
            error: { type: 'INVALID_RECORDS', message: 'A maximum of 10 records can be updated per request but you have provided 11.' },
          },
        },
      ]);
    }
    const tooManyDeletes = await harness.call('DELETE', `${path}?${[...ids, ids[0]].map((id) => `records[]=${id}`).join('&')}`);
    expect(tooManyDeletes).toEqual({
      status: 422,
      body: { error: { type: 'INVALID_RECORDS', message: '"records" must be an array of up to 10 record IDs.' } },
    });
    expect(await listNames()).toEqual(before);
  });
});
