import type { Sandbox } from '../../src/sandbox/index.js';

export interface ExpectedTable {
  tableId: string;
  tableName: string;
  recordCount: number;
  storageBytes: number;
  fileCount: number;
}

/** Sums a sandbox base straight from its stored cells: the reference a count is checked against. */
export function expectedCounts(sandbox: Sandbox, baseId: string): ExpectedTable[] {
  const base = sandbox.store.getBase(baseId);
  if (!base) throw new Error(`no sandbox base ${baseId}`);
  return base.tables.map((table) => {
    const attachmentFields = table.fields.filter((f) => f.type === 'multipleAttachments').map((f) => f.id);
    const expected = { tableId: table.id, tableName: table.name, recordCount: 0, storageBytes: 0, fileCount: 0 };
    for (const record of table.records.values()) {
      expected.recordCount++;
      for (const fieldId of attachmentFields) {
        const cell = (record.cellsByFieldId[fieldId] ?? []) as Array<{ size?: number }>;
        expected.fileCount += cell.length;
        for (const attachment of cell) expected.storageBytes += attachment.size ?? 0;
      }
    }
    return expected;
  });
}

export const sumOf = (tables: ExpectedTable[], key: 'recordCount' | 'storageBytes' | 'fileCount') =>
  tables.reduce((total, table) => total + table[key], 0);
