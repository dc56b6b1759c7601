import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttachmentResponse } from '../../src/sandbox/index.js';
import { startSandbox, type ListBody, type RecordBody, type SandboxHarness } from './sandbox-harness.js';

function addItemsBase(harness: SandboxHarness, records: Array<Record<string, unknown>> = []) {
  const base = harness.sandbox.store.addBase({
    name: 'Writes',
    tables: [
      {
        name: 'Items',
        fields: [
          { name: 'Name', type: 'singleLineText' },
          { name: 'Count', type: 'number', options: { precision: 0 } },
          { name: 'Files', type: 'multipleAttachments' },
          { name: 'Done', type: 'checkbox', options: { color: 'greenBright', icon: 'check' } },
          { name: 'Code', type: 'autoNumber' },
        ],
        records,
      },
    ],
  });
  const table = base.tables[0];
  const path = `/v0/${base.id}/${table.id}`;
  const create = (fields: Record<string, unknown>) =>
    harness.call<{ records: RecordBody[] }>('POST', path, { body: { records: [{ fields }] } });
  return { base, table, path, create };
}

describe('sandbox record writes', () => {
  let harness: SandboxHarness;

  beforeAll(async () => {
    harness = await startSandbox({ demo: false });
  });

  afterAll(() => harness.close());

  it('creates records by field name or id, in both request forms', async () => {
    const { table, path } = addItemsBase(harness);
    const countField = table.fields[1];
    const many = await harness.call<{ records: RecordBody[] }>('POST', path, {
      body: { records: [{ fields: { Name: 'a', [countField.id]: 2 } }, { fields: { Name: 'b', Done: false } }] },
    });
    expect(many.status).toBe(200);
    // Code is an autoNumber: the platform numbers new records.
    expect(many.body.records.map((record) => record.fields)).toEqual([
      { Name: 'a', Count: 2, Code: 1 },
      { Name: 'b', Code: 2 },
    ]);
    expect(many.body.records[0].id).toMatch(/^rec[A-Za-z0-9]{14}$/);

    const single = await harness.call<RecordBody>('POST', path, { body: { fields: { Name: 'c', Count: '7' }, typecast: true } });
    expect(single.body.fields).toEqual({ Name: 'c', Count: 7, Code: 3 });
  });

  it('stores attachments written by url with deterministic sizes', async () => {
    const { create } = addItemsBase(harness);
    const url = 'https://example.com/files/report.pdf';
    const first = await create({ Files: [{ url }, { url: 'https://example.com/photo.jpg', filename: 'cover.jpg' }] });
    const second = await create({ Files: [{ url }, { url: 'https://example.com/blank.txt', size: null }] });
    const [report, cover] = first.body.records[0].fields.Files as AttachmentResponse[];
    const [sameReport, blank] = second.body.records[0].fields.Files as AttachmentResponse[];

    expect(report.id).toMatch(/^att[A-Za-z0-9]{14}$/);
    expect(report).toMatchObject({
      filename: 'report.pdf',
      type: 'application/pdf',
      url: `https://sandbox.invalid/${report.id}/report.pdf`,
    });
    expect(report.size).toBe(sameReport.size);
    expect(cover).toMatchObject({ filename: 'cover.jpg', type: 'image/jpeg' });
    expect(cover.width).toBeGreaterThan(0);
    expect(blank.size).toBeUndefined();

    const sized = await create({ Files: [{ url, size: 123 }] });
    expect((sized.body.records[0].fields.Files as AttachmentResponse[])[0].size).toBe(123);
  });

  it('refuses more than 10 records, unknown fields, wrong values and computed fields', async () => {
    const { path, create } = addItemsBase(harness);
    const records = Array.from({ length: 11 }, (_, index) => ({ fields: { Name: `n${index}` } }));
    const tooMany = await harness.call('POST', path, { body: { records } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body).toEqual({
      error: { type: 'INVALID_RECORDS', message: 'A maximum of 10 records can be created per request but you have provided 11.' },
    });

    expect((await create({ Nope: 1 })).body).toMatchObject({ error: { type: 'UNKNOWN_FIELD_NAME' } });
    expect((await create({ Count: 'seven' })).body).toMatchObject({ error: { type: 'INVALID_VALUE_FOR_COLUMN' } });
    expect((await create({ Code: 5 })).body).toMatchObject({ error: { type: 'INVALID_VALUE_FOR_COLUMN' } });
    expect((await create({ Files: [{ url: 'ftp://nope' }] })).status).toBe(422);
  });

  it('updates with PATCH, replaces with PUT and keeps attachments named by id', async () => {
    const { path, create } = addItemsBase(harness);
    const created = await create({ Name: 'before', Count: 3, Files: [{ url: 'https://example.com/a.png' }] });
    const { id, fields } = created.body.records[0];
    const attachmentId = (fields.Files as AttachmentResponse[])[0].id;

    const patched = await harness.call<{ records: RecordBody[] }>('PATCH', path, {
      body: { records: [{ id, fields: { Name: 'after' } }] },
    });
    expect(patched.body.records[0].fields).toMatchObject({ Name: 'after', Count: 3 });

    const put = await harness.call<RecordBody>('PUT', `${path}/${id}`, { body: { fields: { Files: [{ id: attachmentId }] } } });
    // PUT clears what it does not name, except the computed Code.
    expect(Object.keys(put.body.fields).sort()).toEqual(['Code', 'Files']);
    expect((put.body.fields.Files as AttachmentResponse[])[0].id).toBe(attachmentId);
  });

  it('answers ROW_DOES_NOT_EXIST for batch updates and 404 for single updates of unknown ids', async () => {
    const { path } = addItemsBase(harness);
    const batch = await harness.call('PATCH', path, { body: { records: [{ id: 'recAAAAAAAAAAAAAA', fields: { Name: 'x' } }] } });
    expect(batch.status).toBe(422);
    expect(batch.body.error.type).toBe('ROW_DOES_NOT_EXIST');
    expect((await harness.call('PATCH', `${path}/recAAAAAAAAAAAAAA`, { body: { fields: {} } })).status).toBe(404);
  });

  it('deletes only with records[] and at most 10 ids', async () => {
    const { path } = addItemsBase(harness);
    const created = await harness.call<{ records: RecordBody[] }>('POST', path, {
      body: { records: [{ fields: { Name: 'd1' } }, { fields: { Name: 'd2' } }, { fields: { Name: 'd3' } }] },
    });
    const [first, second, third] = created.body.records.map((record) => record.id);
    const message = '"records" must be an array of up to 10 record IDs.';

    const plain = await harness.call('DELETE', `${path}?records=${first}`);
    expect(plain.status).toBe(422);
    expect(plain.body).toEqual({ error: { type: 'INVALID_RECORDS', message } });
    const eleven = Array.from({ length: 11 }, () => `records[]=${first}`).join('&');
    expect((await harness.call('DELETE', `${path}?${eleven}`)).body).toEqual({ error: { type: 'INVALID_RECORDS', message } });

    const deleted = await harness.call('DELETE', `${path}?records[]=${first}&records%5B%5D=${second}`);
    expect(deleted.body).toEqual({
      records: [
        { id: first, deleted: true },
        { id: second, deleted: true },
      ],
    });
    expect((await harness.call('DELETE', `${path}?records[]=${first}`)).body.error.type).toBe('ROW_DOES_NOT_EXIST');
    expect((await harness.call('DELETE', `${path}/${third}`)).body).toEqual({ id: third, deleted: true });
    expect((await harness.call('DELETE', `${path}/${third}`)).status).toBe(404);
  });

  it('answers malformed JSON with 400, oversized bodies with 413 and unknown routes with 404', async () => {
    const { path } = addItemsBase(harness);
    const malformed = await harness.call('POST', path, { rawBody: '{"records": [' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.type).toBe('INVALID_REQUEST_UNKNOWN');

    const huge = await harness.call('POST', path, { body: { fields: { Name: 'x'.repeat(2_200_000) } } });
    expect(huge.status).toBe(413);

    const unknown = await harness.call<unknown>('GET', '/v1/whatever');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'NOT_FOUND' });
    expect((await harness.call<unknown>('GET', '/v0/meta/whatever')).body).toEqual({ error: 'NOT_FOUND' });
  });

  it('keeps records created after a listing started out of that listing', async () => {
    const { base, path } = addItemsBase(harness, [{ Name: 'one' }, { Name: 'two' }, { Name: 'three' }]);
    const before = (await harness.call<ListBody>('GET', `${path}?pageSize=1`)).body;
    harness.sandbox.store.createRecords(base.id, 'Items', [{ Name: 'late' }]);
    let offset = before.offset;
    const names: unknown[] = before.records.map((record) => record.fields.Name);
    while (offset) {
      const page = (await harness.call<ListBody>('GET', `${path}?pageSize=50&offset=${encodeURIComponent(offset)}`)).body;
      names.push(...page.records.map((record) => record.fields.Name));
      offset = page.offset;
    }
    expect(names).toEqual(['one', 'two', 'three']);
  });
});
