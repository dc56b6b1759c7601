import { createAttachment, toAttachmentResponse, type StoredAttachment } from './attachments.js';
import { NUMERIC_FIELD_TYPES, READ_ONLY_FIELD_TYPES, TEXT_FIELD_TYPES } from './field-types.js';
import { idFromText, isId, type IdGenerator } from './id-generator.js';
import { computedFieldWrite, invalidSelectOption, invalidValueForColumn } from './sandbox-errors.js';
import type { CellValue, Cells, SandboxField, SandboxTable } from './sandbox.types.js';

export interface CellWriteContext {
  typecast: boolean;
  allowComputed: boolean;
  /** The cell's value before this write, so attachments can be kept by `{id}`. */
  previous: CellValue | undefined;
  ids: IdGenerator;
}

type Fail = () => never;
type Entry = Record<string, unknown>;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T/;

export function isEmptyCell(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === false || (Array.isArray(value) && value.length === 0);
}

/** Validates one written value and returns what to store; undefined means the cell becomes empty. */
export function normalizeCell(field: SandboxField, value: unknown, context: CellWriteContext): CellValue | undefined {
  if (READ_ONLY_FIELD_TYPES.has(field.type) && !context.allowComputed) throw computedFieldWrite(field.name);
  if (value === null || value === undefined) return undefined;
  const fail: Fail = () => {
    throw invalidValueForColumn(field.name, value);
  };
  const normalized = normalizeByType(field, value, context, fail);
  return isEmptyCell(normalized) ? undefined : normalized;
}

function normalizeByType(field: SandboxField, value: unknown, context: CellWriteContext, fail: Fail): CellValue {
  const { type } = field;
  if (TEXT_FIELD_TYPES.has(type)) return toText(value, context.typecast, fail);
  if (NUMERIC_FIELD_TYPES.has(type)) return toNumber(value, context.typecast, fail);
  switch (type) {
    case 'checkbox':
      return toCheckbox(value, context.typecast, fail);
    case 'date':
      return toDate(value, context.typecast, fail);
    case 'dateTime':
      return toDateTime(value, fail);
    case 'singleSelect':
      return toSelect(field, value, context, fail);
    case 'multipleSelects':
      return toSelects(field, value, context, fail);
    case 'multipleRecordLinks':
      return toRecordLinks(value, context.typecast, fail);
    case 'singleCollaborator':
      return toCollaborator(value, fail);
    case 'multipleCollaborators':
      return Array.isArray(value) ? value.map((item) => toCollaborator(item, fail)) : fail();
    case 'multipleAttachments':
      return toAttachments(value, context, fail);
    case 'barcode':
      return isEntry(value) && typeof value.text === 'string' ? { ...value } : fail();
    default:
      return structuredClone(value) as CellValue;
  }
}

function toText(value: unknown, typecast: boolean, fail: Fail): string {
  if (typeof value === 'string') return value;
  if (typecast && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  return fail();
}

function toNumber(value: unknown, typecast: boolean, fail: Fail): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typecast && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return fail();
}

function toCheckbox(value: unknown, typecast: boolean, fail: Fail): boolean {
  if (typeof value === 'boolean') return value;
  if (!typecast) return fail();
  if (typeof value === 'string') return !['', 'false', '0', 'no'].includes(value.trim().toLowerCase());
  return Boolean(value);
}

function toDate(value: unknown, typecast: boolean, fail: Fail): string {
  if (typeof value !== 'string') return fail();
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) return fail();
  if (DATE_PATTERN.test(value)) return value;
  if (typecast || DATE_TIME_PATTERN.test(value)) return new Date(parsed).toISOString().slice(0, 10);
  return fail();
}

function toDateTime(value: unknown, fail: Fail): string {
  if (typeof value !== 'string') return fail();
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? fail() : new Date(parsed).toISOString();
}

function toSelect(field: SandboxField, value: unknown, context: CellWriteContext, fail: Fail): string {
  if (typeof value !== 'string') return fail();
  if (value === '') return value;
  const choices = (field.options?.choices ?? []) as Array<{ name: string }>;
  if (choices.some((choice) => choice.name === value)) return value;
  if (!context.typecast) throw invalidSelectOption(value);
  // Replaced, not mutated, so field snapshots already handed out stay as they were.
  field.options = { ...field.options, choices: [...choices, { id: context.ids.next('sel'), name: value }] };
  return value;
}

function toSelects(field: SandboxField, value: unknown, context: CellWriteContext, fail: Fail): string[] {
  const items = context.typecast && typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value;
  if (!Array.isArray(items)) return fail();
  const names = items.map((item) => toSelect(field, item, context, fail)).filter((name) => name !== '');
  return [...new Set(names)];
}

function toRecordLinks(value: unknown, typecast: boolean, fail: Fail): string[] {
  const items = typecast && typeof value === 'string' ? [value] : value;
  if (!Array.isArray(items)) return fail();
  // A record is linked once, however often it is named.
  return [...new Set(items.map((item) => (typeof item === 'string' && isId(item, 'rec') ? item : fail())))];
}

function toCollaborator(value: unknown, fail: Fail): Entry {
  if (!isEntry(value)) return fail();
  const { id, email, name } = value;
  if (typeof email === 'string' && email.includes('@')) {
    const collaborator: Entry = { id: typeof id === 'string' ? id : idFromText('usr', email.toLowerCase()), email };
    if (typeof name === 'string') collaborator.name = name;
    return collaborator;
  }
  return typeof id === 'string' && isId(id, 'usr') ? { id } : fail();
}

function toAttachments(value: unknown, context: CellWriteContext, fail: Fail): StoredAttachment[] {
  if (!Array.isArray(value)) return fail();
  const previous = Array.isArray(context.previous) ? (context.previous as StoredAttachment[]) : [];
  return value.map((item: unknown) => {
    if (!isEntry(item)) return fail();
    if (typeof item.id === 'string') return previous.find((attachment) => attachment.id === item.id) ?? fail();
    const { url, filename, size } = item;
    if (typeof url !== 'string' || !/^https?:\/\/\S+$/i.test(url)) return fail();
    if (filename !== undefined && typeof filename !== 'string') return fail();
    if (size !== undefined && size !== null && !(Number.isSafeInteger(size) && (size as number) >= 0)) return fail();
    return createAttachment(context.ids.next('att'), { url, filename, size: size as number | null | undefined });
  });
}

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function renderCell(field: SandboxField, value: CellValue): unknown {
  if (field.type === 'multipleAttachments' && Array.isArray(value)) {
    return (value as StoredAttachment[]).map(toAttachmentResponse);
  }
  return value;
}

/** Cells in the REST read format keyed by field id, in the table's field order. */
export function renderCellsByFieldId(table: SandboxTable, cells: Cells): Record<string, unknown> {
  const rendered: Record<string, unknown> = {};
  for (const field of table.fields) {
    const value = cells[field.id];
    if (value !== undefined) rendered[field.id] = renderCell(field, value);
  }
  return rendered;
}
