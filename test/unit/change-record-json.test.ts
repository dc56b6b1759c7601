import { describe, expect, it } from 'vitest';
import { ChangeRows, changeRecordJson, toChangeRecord, type ChangeRow } from '../../src/services/audit/change-row.js';
import { jsonWithRaw, RawJson } from '../../src/services/raw-json.js';

/** A stored row as ingestion writes it: the JSON columns by JSON.stringify (change-ingest.service.ts). */
function storedRow(values: {
  id: number | string;
  names: string;
  fieldIds: string[];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  nulls?: boolean;
}): ChangeRow {
  const { id, names, fieldIds, before, after, nulls = false } = values;
  return [
    id,
    nulls ? null : 'recMON00000000001',
    '2026-03-08T07:00:00.000Z',
    'record_update',
    'record',
    'tblAAAAAAAAAAAAAA',
    names,
    nulls ? null : 'recAAAAAAAAAAAAAA',
    JSON.stringify(fieldIds),
    'publicApiCall',
    nulls ? null : `${names}@example.com`,
    nulls ? null : names,
    before === null ? null : JSON.stringify(before),
    after === null ? null : JSON.stringify(after),
  ];
}

const AWKWARD = [
  'plain',
  'quote " and backslash \\',
  'line\nbreak\ttab\u0001control',
  'Zürich – 東京 🚀',
  'lone \ud800 surrogate',
  '</script>',
];

describe('rendering stored change rows as JSON', () => {
  it('writes exactly the text JSON.stringify gives for the parsed record, whatever the strings hold', () => {
    for (const [i, names] of AWKWARD.entries()) {
      for (const nulls of [false, true]) {
        const row = storedRow({
          id: 1_000_000 + i,
          names,
          fieldIds: i % 2 ? [] : ['fldAAAAAAAAAAAAAA', 'fldBBBBBBBBBBBBBB'],
          before:
            i % 3
              ? null
              : { fldAAAAAAAAAAAAAA: names, fldBBBBBBBBBBBBBB: [{ id: 'att1', size: 12, nested: { deep: [1, 2.5, null, true] } }] },
          after: { fldAAAAAAAAAAAAAA: null, fldBBBBBBBBBBBBBB: -0.000123 },
          nulls,
        });
        const text = changeRecordJson(row);
        expect(text).toBe(JSON.stringify(toChangeRecord(row)));
        expect(JSON.parse(text)).toEqual(toChangeRecord(row));
      }
    }
  });

  it('renders the first rows of a window as one array, and none as [], as its records stringify', () => {
    const rows = AWKWARD.map((names, i) => storedRow({ id: i + 1, names, fieldIds: [], before: null, after: { f: names } }));
    const window = new ChangeRows(rows);
    expect(window.json(rows.length).text).toBe(JSON.stringify(window.records()));
    expect(window.json(2).text).toBe(JSON.stringify(rows.slice(0, 2).map(toChangeRecord)));
    expect(window.json(0).text).toBe('[]');
    expect(new ChangeRows([]).json(0).text).toBe('[]');
  });

  it('splices raw members into an object and leaves undefined members out, as JSON.stringify does', () => {
    const value = { configId: 'c "1"', records: new RawJson('[{"a":1}]'), nextCursor: undefined, count: 2, table: null };
    const text = jsonWithRaw(value);
    expect(text).toBe('{"configId":"c \\"1\\"","records":[{"a":1}],"count":2,"table":null}');
    expect(JSON.parse(text)).toEqual({ configId: 'c "1"', records: [{ a: 1 }], count: 2, table: null });
  });
});
