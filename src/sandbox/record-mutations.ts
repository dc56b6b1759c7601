import { normalizeCell, renderCellsByFieldId } from './cell-values.js';
import { READ_ONLY_FIELD_TYPES } from './field-types.js';
import type { IdGenerator } from './id-generator.js';
import { nextAutoNumber, stampCreated, stampModified } from './record-metadata-cells.js';
import { checkLinkedRecords, syncLinkedRecords, type LinkCellChange, type LinkedRecordsUpdate } from './link-sync.js';
import type { ChangeActor, SandboxChange, UpdatedRecord } from './sandbox-change.types.js';
import { invalidRequest, rowDoesNotExist, unknownFieldName } from './sandbox-errors.js';
import type { Cells, SandboxBase, SandboxField, SandboxRecord, SandboxTable } from './sandbox.types.js';

export interface MutationContext {
  ids: IdGenerator;
  /** Absent while seeding: seeded content is not a change. */
  emit?: (change: SandboxChange) => void;
}

export interface RecordMutationOptions {
  typecast?: boolean;
  actor: ChangeActor;
  /** Seeded content may fill computed fields; the API may not. */
  allowComputed?: boolean;
  createdTime?: (index: number) => string;
  /** PUT semantics: cells not named in the write are cleared. */
  replace?: boolean;
}

export interface RecordUpdateInput {
  id: string;
  fields: Record<string, unknown>;
}

export function findField(table: SandboxTable, idOrName: string): SandboxField | undefined {
  return table.fields.find((field) => field.id === idOrName) ?? table.fields.find((field) => field.name === idOrName);
}

export function createRecords(
  context: MutationContext,
  base: SandboxBase,
  table: SandboxTable,
  inputs: Array<Record<string, unknown>>,
  options: RecordMutationOptions,
): SandboxRecord[] {
  const allCells = inputs.map((fields) => buildCells(context, table, fields, {}, {}, options));
  checkLinkedRecords(
    base,
    table,
    allCells.map((after) => ({ recordId: '', before: {}, after })),
  );
  const now = new Date().toISOString();
  const firstNumber = nextAutoNumber(table);
  const records = allCells.map((cellsByFieldId, index): SandboxRecord => {
    const record = { id: uniqueRecordId(context.ids, table), createdTime: options.createdTime?.(index) ?? now, cellsByFieldId };
    // Seeded content brings its computed values; API writes get them from the platform.
    if (!options.allowComputed)
      stampCreated(table, cellsByFieldId, { createdTime: record.createdTime, autoNumber: firstNumber + index, actor: options.actor });
    table.records.set(record.id, record);
    return record;
  });
  context.emit?.({
    ...changeCommon(base, table, options.actor),
    kind: 'recordsCreated',
    records: records.map((record) => ({
      id: record.id,
      createdTime: record.createdTime,
      cellValuesByFieldId: renderCellsByFieldId(table, record.cellsByFieldId),
    })),
  });
  const linkChanges = records.map((record) => ({ recordId: record.id, before: {}, after: record.cellsByFieldId }));
  emitLinkedUpdates(context, base, syncLinkedRecords(base, table, linkChanges), options.actor);
  return records;
}

export function updateRecords(
  context: MutationContext,
  base: SandboxBase,
  table: SandboxTable,
  inputs: RecordUpdateInput[],
  options: RecordMutationOptions,
): SandboxRecord[] {
  const pending = new Map<string, Cells>();
  for (const input of inputs) {
    const record = table.records.get(input.id);
    if (!record) throw rowDoesNotExist(input.id);
    const current = pending.get(input.id) ?? record.cellsByFieldId;
    pending.set(
      input.id,
      buildCells(context, table, input.fields, options.replace ? computedCells(table, current) : current, current, options),
    );
  }
  const linkChanges: LinkCellChange[] = [...pending].map(([id, after]) => ({
    recordId: id,
    before: (table.records.get(id) as SandboxRecord).cellsByFieldId,
    after,
  }));
  checkLinkedRecords(base, table, linkChanges);
  const updates: UpdatedRecord[] = [];
  const now = new Date().toISOString();
  for (const [id, cells] of pending) {
    const record = table.records.get(id) as SandboxRecord;
    const written = changedFields(table, record.cellsByFieldId, cells);
    if (written.length > 0 && !options.allowComputed) stampModified(table, cells, written, { time: now, actor: options.actor });
    const changedFieldIds = changedFields(table, record.cellsByFieldId, cells);
    if (changedFieldIds.length > 0) {
      const previous = renderCellsByFieldId(table, record.cellsByFieldId);
      updates.push({ id, changedFieldIds, previous, current: renderCellsByFieldId(table, cells) });
    }
    record.cellsByFieldId = cells;
  }
  if (updates.length > 0) context.emit?.({ ...changeCommon(base, table, options.actor), kind: 'recordsUpdated', records: updates });
  emitLinkedUpdates(context, base, syncLinkedRecords(base, table, linkChanges), options.actor);
  return inputs.map((input) => table.records.get(input.id) as SandboxRecord);
}

export function deleteRecords(
  context: MutationContext,
  base: SandboxBase,
  table: SandboxTable,
  recordIds: string[],
  actor: ChangeActor,
): string[] {
  const records = recordIds.map((id) => table.records.get(id) ?? throwRowDoesNotExist(id));
  const unique = [...new Set(records)];
  for (const record of unique) table.records.delete(record.id);
  context.emit?.({
    ...changeCommon(base, table, actor),
    kind: 'recordsDeleted',
    records: unique.map((record) => ({
      id: record.id,
      createdTime: record.createdTime,
      previous: renderCellsByFieldId(table, record.cellsByFieldId),
    })),
  });
  const linkChanges = unique.map((record) => ({ recordId: record.id, before: record.cellsByFieldId, after: {} }));
  const deletedIds = new Set(unique.map((record) => record.id));
  emitLinkedUpdates(context, base, syncLinkedRecords(base, table, linkChanges, deletedIds), actor);
  return recordIds;
}

/** The second side of a write's links: one `recordsUpdated` per linked table, after the write's own change. */
function emitLinkedUpdates(context: MutationContext, base: SandboxBase, updates: LinkedRecordsUpdate[], actor: ChangeActor): void {
  for (const { table, records } of updates) {
    context.emit?.({ ...changeCommon(base, table, actor), kind: 'recordsUpdated', records });
  }
}

function buildCells(
  context: MutationContext,
  table: SandboxTable,
  fields: Record<string, unknown>,
  start: Cells,
  previous: Cells,
  options: RecordMutationOptions,
): Cells {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw invalidRequest();
  const cells: Cells = { ...start };
  for (const [key, value] of Object.entries(fields)) {
    const field = findField(table, key);
    if (!field) throw unknownFieldName(key);
    const stored = normalizeCell(field, value, {
      typecast: options.typecast ?? false,
      allowComputed: options.allowComputed ?? false,
      previous: previous[field.id],
      ids: context.ids,
    });
    if (stored === undefined) delete cells[field.id];
    else cells[field.id] = stored;
  }
  return cells;
}

/** PUT clears the cells it does not name, but computed cells are the platform's to fill: they stay. */
function computedCells(table: SandboxTable, cells: Cells): Cells {
  const kept: Cells = {};
  for (const field of table.fields) {
    if (READ_ONLY_FIELD_TYPES.has(field.type) && cells[field.id] !== undefined) kept[field.id] = cells[field.id];
  }
  return kept;
}

function changedFields(table: SandboxTable, before: Cells, after: Cells): string[] {
  return table.fields.filter((field) => JSON.stringify(before[field.id]) !== JSON.stringify(after[field.id])).map((field) => field.id);
}

function uniqueRecordId(ids: IdGenerator, table: SandboxTable): string {
  let id = ids.next('rec');
  while (table.records.has(id)) id = ids.next('rec');
  return id;
}

function throwRowDoesNotExist(id: string): never {
  throw rowDoesNotExist(id);
}

export function changeCommon(base: SandboxBase, table: SandboxTable, actor: ChangeActor) {
  return { baseId: base.id, tableId: table.id, tableName: table.name, at: new Date(), actor };
}
