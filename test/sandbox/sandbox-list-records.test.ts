import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASE_NAMES } from '../../src/sandbox/index.js';
import {
  baseIdByName,
  listAll,
  startSandbox,
  tableByName,
  type ListBody,
  type RecordBody,
  type SandboxHarness,
} from './sandbox-harness.js';
import { tempDir } from '../support/temp-dir.js';

const OFFSET_FORMAT = /^itr[A-Za-z0-9]{14}\/rec[A-Za-z0-9]{14}$/;

describe('sandbox list records', () => {
  let harness: SandboxHarness;
  let baseId: string;
  let products: string;

  beforeAll(async () => {
    harness = await startSandbox({ demo: { scale: 1.2 } });
    baseId = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
    products = `/v0/${baseId}/${tableByName(harness.sandbox, baseId, 'Products').id}`;
  });

  afterAll(() => harness.close());

  it('pages through every record exactly once with itr/rec offsets', async () => {
    const table = tableByName(harness.sandbox, baseId, 'Products');
    expect(table.records.size).toBe(300);

    const { records, offsets } = await listAll(harness, products, 'pageSize=100');

    expect(records.map((record) => record.id)).toEqual([...table.records.keys()]);
    expect(offsets).toHaveLength(2);
    for (const [index, offset] of offsets.entries()) {
      expect(offset).toMatch(OFFSET_FORMAT);
      expect(offset.split('/')[1]).toBe(records[index * 100 + 99].id);
    }
  });

  it('uses pages of 100 by default and stops at maxRecords', async () => {
    const first = await harness.call<ListBody>('GET', `${products}?maxRecords=150`);
    expect(first.body.records).toHaveLength(100);
    const second = await harness.call<ListBody>('GET', `${products}?maxRecords=150&offset=${encodeURIComponent(first.body.offset ?? '')}`);
    expect(second.body.records).toHaveLength(50);
    expect(second.body.offset).toBeUndefined();
  });

  it('leaves empty cells out of records', async () => {
    const { records } = await listAll(harness, products);
    const values = records.flatMap((record) => Object.values(record.fields));
    for (const value of values) {
      expect(value === '' || value === false || value === null || (Array.isArray(value) && value.length === 0)).toBe(false);
    }
    const withoutPrice = records.find((record) => !('Price' in record.fields));
    const withoutPhotos = records.find((record) => !('Photos' in record.fields));
    expect(withoutPrice).toBeDefined();
    expect(withoutPhotos).toBeDefined();

    const single = await harness.call<RecordBody>('GET', `${products}/${withoutPrice?.id}`);
    expect(single.status).toBe(200);
    expect(single.body.fields).toEqual(withoutPrice?.fields);
  });

  it('selects fields by name or id and returns them by field id on request', async () => {
    const table = tableByName(harness.sandbox, baseId, 'Products');
    const [name, price] = table.fields;
    const byName = await harness.call<ListBody>('GET', `${products}?fields[]=Name&fields[]=Price&pageSize=20`);
    const keys = new Set(byName.body.records.flatMap((record) => Object.keys(record.fields)));
    expect([...keys].sort()).toEqual(['Name', 'Price']);

    for (const flag of ['true', '1']) {
      const byId = await harness.call<ListBody>('GET', `${products}?fields%5B%5D=${name.id}&fields[1]=Price&returnFieldsByFieldId=${flag}`);
      const idKeys = new Set(byId.body.records.flatMap((record) => Object.keys(record.fields)));
      expect([...idKeys].sort()).toEqual([name.id, price.id].sort());
    }
  });

  it('refuses unknown fields, large pages, formulas and unknown views', async () => {
    const unknownField = await harness.call('GET', `${products}?fields[]=Nope`);
    expect(unknownField.status).toBe(422);
    expect(unknownField.body.error).toEqual({ type: 'UNKNOWN_FIELD_NAME', message: 'Unknown field name: "Nope"' });

    for (const pageSize of ['101', '0', 'ten']) {
      const page = await harness.call('GET', `${products}?pageSize=${pageSize}`);
      expect(page.status).toBe(422);
      expect(page.body.error.type).toBe('INVALID_REQUEST_UNKNOWN');
    }

    const formula = await harness.call('GET', `${products}?filterByFormula=${encodeURIComponent('{Price} > 5')}`);
    expect(formula.status).toBe(422);
    expect(formula.body.error.type).toBe('INVALID_FILTER_BY_FORMULA');
    expect((await harness.call('GET', `${products}?filterByFormula=&view=Grid%20view`)).status).toBe(200);

    const view = await harness.call('GET', `${products}?view=Kanban`);
    expect(view.body.error.type).toBe('VIEW_NAME_NOT_FOUND');
  });

  it('sorts by a field', async () => {
    const sorted = await harness.call<ListBody>('GET', `${products}?sort[0][field]=Price&sort[0][direction]=desc&fields[]=Price`);
    const prices = sorted.body.records.map((record) => record.fields.Price as number);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('lists through POST listRecords with parameters in the body', async () => {
    const table = tableByName(harness.sandbox, baseId, 'Products');
    const path = `${products}/listRecords?timeZone=Europe%2FBerlin&userLocale=en`;
    const body = { pageSize: 100, fields: ['Name'], returnFieldsByFieldId: true };
    const first = await harness.call<ListBody>('POST', path, { body });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body.records[0].fields)).toEqual([table.primaryFieldId]);

    const second = await harness.call<ListBody>('POST', path, { body: { ...body, offset: first.body.offset } });
    expect(second.body.records[0].id).toBe([...table.records.keys()][100]);
  });

  it('accepts the listRecords body airtable.js sends: method, timeZone and userLocale in it, offset null', async () => {
    const table = tableByName(harness.sandbox, baseId, 'Products');
    // select({method: 'post', …}) posts every parameter (its own `method` too) and repeats timeZone and userLocale
    // in the query string (airtable.js src/query.ts, eachPage).
    const select = {
      method: 'post',
      view: 'Grid view',
      fields: ['Name'],
      sort: [{ field: 'Name', direction: 'asc' }],
      pageSize: 100,
      maxRecords: 150,
      returnFieldsByFieldId: false,
      cellFormat: 'json',
      timeZone: 'Europe/Berlin',
      userLocale: 'en-gb',
    };
    const path = `${products}/listRecords?timeZone=Europe%2FBerlin&userLocale=en-gb`;
    const first = await harness.call<ListBody>('POST', path, { body: select });
    expect(first.status).toBe(200);
    expect(first.body.records).toHaveLength(100);
    const second = await harness.call<ListBody>('POST', path, { body: { ...select, offset: first.body.offset } });
    expect(second.status).toBe(200);
    expect(second.body.records).toHaveLength(50);
    expect(second.body.offset).toBeUndefined();

    const nullOffset = await harness.call<ListBody>('POST', `${products}/listRecords`, { body: { pageSize: 3, offset: null } });
    expect(nullOffset.body.records.map((record) => record.id)).toEqual([...table.records.keys()].slice(0, 3));
    const bodyOnly = await harness.call<ListBody>('POST', `${products}/listRecords`, { body: { timeZone: 'utc', userLocale: 'fr' } });
    expect(bodyOnly.status).toBe(200);
  });

  it('checks timeZone and userLocale wherever they are sent, and still refuses what airtable.js never sends', async () => {
    expect((await harness.call('GET', `${products}?timeZone=America%2FNew_York&userLocale=en&pageSize=1`)).status).toBe(200);
    expect((await harness.call('GET', `${products}/recAAAAAAAAAAAAAA?timeZone=Mars%2FOlympus`)).status).toBe(422);
    const refused = [
      { query: '?timeZone=Mars%2FOlympus', body: {} },
      { query: '?userLocale=en_US', body: {} },
      { query: '?timeZone=utc', body: { timeZone: '+01:00' } },
      { query: '', body: { userLocale: 42 } },
      { query: '', body: { method: 'put' } },
      { query: '', body: { offset: 7 } },
      { query: '', body: { unknownOption: true } },
      { query: '?pageSize=10', body: {} },
    ];
    for (const { query, body } of refused) {
      const response = await harness.call('POST', `${products}/listRecords${query}`, { body });
      expect(response.status, JSON.stringify({ query, body })).toBe(422);
      expect(response.body.error.type).toBe('INVALID_REQUEST_UNKNOWN');
    }
    expect((await harness.call('GET', `${products}?timeZone=Mars%2FOlympus`)).status).toBe(422);
  });

  it('refuses a made-up or altered offset', async () => {
    const madeUp = 'itrAAAAAAAAAAAAAA/recAAAAAAAAAAAAAA';
    const response = await harness.call('GET', `${products}?offset=${encodeURIComponent(madeUp)}`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: { type: 'INVALID_OFFSET_VALUE', message: `The value of offset ${madeUp} is invalid` } });

    const first = await harness.call<ListBody>('GET', products);
    const altered = `${first.body.offset?.split('/')[0]}/recBBBBBBBBBBBBBB`;
    const alteredResponse = await harness.call('GET', `${products}?offset=${encodeURIComponent(altered)}`);
    expect(alteredResponse.body.error.type).toBe('INVALID_OFFSET_VALUE');
  });

  it('answers LIST_RECORDS_ITERATOR_NOT_AVAILABLE once iterators are expired, and a restart works', async () => {
    const first = await harness.call<ListBody>('GET', products);
    const expired = await harness.call<{ expired: number }>('POST', '/_control/expire-iterators');
    expect(expired.body.expired).toBeGreaterThan(0);

    const response = await harness.call('GET', `${products}?offset=${encodeURIComponent(first.body.offset ?? '')}`);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ error: { type: 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE' } });
    expect((await listAll(harness, products)).records).toHaveLength(300);
  });

  it('reads an empty offset as none: the first page (GET and POST)', async () => {
    const first = await harness.call<ListBody>('GET', `${products}?pageSize=5`);
    const empty = await harness.call<ListBody>('GET', `${products}?pageSize=5&offset=`);
    expect(empty.status).toBe(200);
    expect(empty.body.records.map((record) => record.id)).toEqual(first.body.records.map((record) => record.id));
    const posted = await harness.call<ListBody>('POST', `${products}/listRecords`, { body: { pageSize: 5, offset: '' } });
    expect(posted.status).toBe(200);
    expect(posted.body.records.map((record) => record.id)).toEqual(first.body.records.map((record) => record.id));
    expect((await harness.call('GET', '/v0/meta/bases?offset=')).status).toBe(200);
  });

  it('tells an offset of an expired iterator of another table from a live one: INVALID_OFFSET_VALUE', async () => {
    const orders = `/v0/${baseId}/${tableByName(harness.sandbox, baseId, 'Orders').id}`;
    const first = await harness.call<ListBody>('GET', `${products}?pageSize=5`);
    await harness.call('POST', '/_control/expire-iterators');
    const elsewhere = await harness.call(`GET`, `${orders}?offset=${encodeURIComponent(first.body.offset ?? '')}`);
    expect(elsewhere.body.error.type).toBe('INVALID_OFFSET_VALUE');
  });

  it('answers 403 for unknown bases and tables and 404 for unknown records', async () => {
    const unknownBase = await harness.call('GET', '/v0/appAAAAAAAAAAAAAA/Products');
    expect(unknownBase.status).toBe(403);
    expect(unknownBase.body.error.type).toBe('INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND');
    expect((await harness.call('GET', `/v0/${baseId}/Nope`)).status).toBe(403);

    const byName = await harness.call<ListBody>('GET', `/v0/${baseId}/Products?pageSize=1`);
    expect(byName.status).toBe(200);

    const record = await harness.call('GET', `${products}/recAAAAAAAAAAAAAA`);
    expect(record.status).toBe(404);
    expect(record.body.error.type).toBe('NOT_FOUND');
  });
});

describe('sandbox iterator lifetime', () => {
  it('answers LIST_RECORDS_ITERATOR_NOT_AVAILABLE for an offset from before a restart (state file kept), INVALID_OFFSET_VALUE for a made-up one', async () => {
    const stateFile = join(tempDir('basewatch-iterators-'), 'sandbox.json');
    const logger = { info: () => undefined, warn: () => undefined };
    const before = await startSandbox({ stateFile, logger, seed: 7 });
    const baseId = baseIdByName(before.sandbox, DEMO_BASE_NAMES.catalog);
    const products = `/v0/${baseId}/Products`;
    const first = await before.call<ListBody>('GET', `${products}?pageSize=10`);
    await before.close();
    before.sandbox.close(); // writes the state file

    // Another seed: what recognises the offset must come from the state file.
    const after = await startSandbox({ stateFile, logger, seed: 8 });
    try {
      const stale = await after.call('GET', `${products}?offset=${encodeURIComponent(first.body.offset ?? '')}`);
      expect(stale.status).toBe(422);
      expect(stale.body).toEqual({ error: { type: 'LIST_RECORDS_ITERATOR_NOT_AVAILABLE' } });
      const [iteratorId, recordId] = (first.body.offset ?? '').split('/');
      const forged = `${iteratorId!.slice(0, -1)}${iteratorId!.endsWith('A') ? 'B' : 'A'}/${recordId}`;
      const forgedAnswer = await after.call('GET', `${products}?offset=${encodeURIComponent(forged)}`);
      expect(forgedAnswer.body.error.type).toBe('INVALID_OFFSET_VALUE');
    } finally {
      await after.close();
    }
  });

  it('expires an iterator left idle longer than iteratorTtlMs', async () => {
    const harness = await startSandbox({ iteratorTtlMs: 30 });
    try {
      const baseId = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
      const first = await harness.call<ListBody>('GET', `/v0/${baseId}/Products`);
      await new Promise((resolve) => setTimeout(resolve, 80));
      const response = await harness.call('GET', `/v0/${baseId}/Products?offset=${encodeURIComponent(first.body.offset ?? '')}`);
      expect(response.status).toBe(422);
      expect(response.body.error.type).toBe('LIST_RECORDS_ITERATOR_NOT_AVAILABLE');
    } finally {
      await harness.close();
    }
  });
});
