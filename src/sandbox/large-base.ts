import type { StoredAttachment } from './attachments.js';
import type { IdGenerator } from './id-generator.js';
import type { Random } from './prng.js';
import { invalidRequest } from './sandbox-errors.js';
import type { Cells, LargeBaseOptions, SandboxBase, SandboxField, SandboxTable } from './sandbox.types.js';

const FIRST_CREATED_TIME = Date.UTC(2023, 0, 1);
const NO_SIZE_EVERY = 50;
/** Name, Amount and Files. */
const STANDARD_FIELDS = 3;

/** Builds cells directly, skipping write validation, so 100,000+ records take well under a second. */
export function buildLargeBase(ids: IdGenerator, random: Random, options: LargeBaseOptions): SandboxBase {
  const attachmentsPerRecord = options.attachmentsPerRecord ?? 0;
  const fieldsPerTable = options.fieldsPerTable ?? STANDARD_FIELDS;
  for (const count of [options.tables, options.recordsPerTable, attachmentsPerRecord, fieldsPerTable - STANDARD_FIELDS]) {
    if (!Number.isSafeInteger(count) || count < 0) throw invalidRequest('Invalid request: counts must be non-negative integers.');
  }
  const base: SandboxBase = { id: ids.next('app'), name: options.name, permissionLevel: 'create', tables: [] };
  const counter = { attachments: 0, records: 0 };
  for (let index = 0; index < options.tables; index++) {
    const shape = { recordCount: options.recordsPerTable, attachmentsPerRecord, extraFields: fieldsPerTable - STANDARD_FIELDS };
    base.tables.push(buildTable(ids, random, `Table ${index + 1}`, shape, counter));
  }
  return base;
}

interface TableShape {
  recordCount: number;
  attachmentsPerRecord: number;
  /** Fields beyond Name, Amount and Files. */
  extraFields: number;
}

function buildTable(
  ids: IdGenerator,
  random: Random,
  name: string,
  { recordCount, attachmentsPerRecord, extraFields }: TableShape,
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
  // Made after the table's own ids, so a base without extra fields keeps the ids it always had.
  const extras = Array.from({ length: extraFields }, (_, index) => extraField(ids, index));
  fields.push(...extras);
  for (let index = 0; index < recordCount; index++) {
    const cells: Cells = { [nameField.id]: `Record ${index + 1}` };
    if (index % 10 !== 9) cells[amountField.id] = 1 + Math.floor(random() * 1000);
    if (attachmentsPerRecord > 0) cells[filesField.id] = buildFiles(ids, random, index, attachmentsPerRecord, counter);
    for (const field of extras) {
      const value = extraCell(field, random);
      if (value !== undefined) cells[field.id] = value;
    }
    let id = ids.next('rec');
    while (table.records.has(id)) id = ids.next('rec');
    const createdTime = new Date(FIRST_CREATED_TIME + counter.records++ * 1000).toISOString();
    table.records.set(id, { id, createdTime, cellsByFieldId: cells });
  }
  return table;
}

/** Writable types whose cells need no options to render; cycled through for the fields beyond the standard three. */
const EXTRA_FIELD_TYPES: ReadonlyArray<Omit<SandboxField, 'id' | 'name'>> = [
  { type: 'singleLineText' },
  { type: 'number', options: { precision: 2 } },
  { type: 'multilineText' },
  { type: 'checkbox', options: { icon: 'check', color: 'greenBright' } },
  { type: 'email' },
  { type: 'date', options: { dateFormat: { name: 'iso', format: 'YYYY-MM-DD' } } },
];

function extraField(ids: IdGenerator, index: number): SandboxField {
  const kind = EXTRA_FIELD_TYPES[index % EXTRA_FIELD_TYPES.length]!;
  return { id: ids.next('fld'), name: `Field ${index + 4}`, ...kind };
}

/** A cell of an extra field; about one in five is left empty, as real tables are not full. */
function extraCell(field: SandboxField, random: Random): Cells[string] | undefined {
  const roll = random();
  if (roll < 0.2) return undefined;
  const n = Math.floor(roll * 1_000_000);
  switch (field.type) {
    case 'number':
      return Math.round(roll * 1_000_000) / 100;
    case 'multilineText':
      return `Notes ${n}: a longer text that spans a line or two, as descriptions and comments in a base do.`;
    case 'checkbox':
      return true;
    case 'email':
      return `person${n}@example.com`;
    case 'date':
      return new Date(FIRST_CREATED_TIME + n * 60_000).toISOString().slice(0, 10);
    default:
      return `Value ${n}`;
  }
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
