import type { StoredAttachment } from './attachments.js';
import type { IdGenerator } from './id-generator.js';
import type { Random } from './prng.js';
import { invalidRequest } from './sandbox-errors.js';
import type { Cells, LargeBaseOptions, SandboxBase, SandboxField, SandboxTable } from './sandbox.types.js';

const FIRST_CREATED_TIME = Date.UTC(2023, 0, 1);
const NO_SIZE_EVERY = 50;

/** Builds cells directly, skipping write validation, so 100,000+ records take well under a second. */
export function buildLargeBase(ids: IdGenerator, random: Random, options: LargeBaseOptions): SandboxBase {
  const attachmentsPerRecord = options.attachmentsPerRecord ?? 0;
  for (const count of [options.tables, options.recordsPerTable, attachmentsPerRecord]) {
    if (!Number.isSafeInteger(count) || count < 0) throw invalidRequest('Invalid request: counts must be non-negative integers.');
  }
  const base: SandboxBase = { id: ids.next('app'), name: options.name, permissionLevel: 'create', tables: [] };
  const counter = { attachments: 0, records: 0 };
  for (let index = 0; index < options.tables; index++) {
    base.tables.push(buildTable(ids, random, `Table ${index + 1}`, options.recordsPerTable, attachmentsPerRecord, counter));
  }
  return base;
}

function buildTable(
  ids: IdGenerator,
  random: Random,
  name: string,
  recordCount: number,
  attachmentsPerRecord: number,
  counter: { attachments: number; records: number },
): SandboxTable {
  const fields: SandboxField[] = [
    { id: ids.next('fld'), name: 'Name', type: 'singleLineText' },
    { id: ids.next('fld'), name: 'Amount', type: 'number', options: { precision: 0 } },
    { id: ids.next('fld'), name: 'Files', type: 'multipleAttachments', options: { isReversed: false } },
  ];
  const [nameField, amountField, filesField] = fields;
  const table: SandboxTable = {
    id: ids.next('tbl'),
    name,
    primaryFieldId: nameField.id,
    fields,
    views: [{ id: ids.next('viw'), name: 'Grid view', type: 'grid' }],
    records: new Map(),
  };
  for (let index = 0; index < recordCount; index++) {
    const cells: Cells = { [nameField.id]: `Record ${index + 1}` };
    if (index % 10 !== 9) cells[amountField.id] = 1 + Math.floor(random() * 1000);
    if (attachmentsPerRecord > 0) cells[filesField.id] = buildFiles(ids, random, index, attachmentsPerRecord, counter);
    let id = ids.next('rec');
    while (table.records.has(id)) id = ids.next('rec');
    const createdTime = new Date(FIRST_CREATED_TIME + counter.records++ * 1000).toISOString();
    table.records.set(id, { id, createdTime, cellsByFieldId: cells });
  }
  return table;
}

function buildFiles(
  ids: IdGenerator,
  random: Random,
  recordIndex: number,
  count: number,
  counter: { attachments: number },
): StoredAttachment[] {
  const files: StoredAttachment[] = [];
  for (let index = 0; index < count; index++) {
    counter.attachments++;
    const file: StoredAttachment = {
      id: ids.next('att'),
      filename: `file-${recordIndex + 1}-${index + 1}.pdf`,
      type: 'application/pdf',
    };
    if (counter.attachments % NO_SIZE_EVERY !== 0) file.size = 10_000 + Math.floor(random() * 5_000_000);
    files.push(file);
  }
  return files;
}
