import { renderCellsByFieldId } from './cell-values.js';
import { inverseFieldOf, LINK_FIELD_TYPE } from './link-fields.js';
import type { UpdatedRecord } from './sandbox-change.types.js';
import { rowDoesNotExist } from './sandbox-errors.js';
import type { Cells, SandboxBase, SandboxField, SandboxTable } from './sandbox.types.js';

/**
 * The second side of record links. A link cell written on a record changes the inverse cells of the records it
 * adds or drops, in the linked table; a deleted record leaves the cells that linked to it (in the linked table and,
 * for a link to its own table, in its table). Those records are updated like any other: the caller emits one
 * `recordsUpdated` per returned table, after the change that caused it.
 */

/** A record of the written table, before and after the write (`{}` for created and deleted records). */
export interface LinkCellChange {
  recordId: string;
  before: Cells;
  after: Cells;
}

export interface LinkedRecordsUpdate {
  table: SandboxTable;
  records: UpdatedRecord[];
}

/** ROW_DOES_NOT_EXIST, before anything is written, for a newly linked record that is not in its linked table. */
export function checkLinkedRecords(base: SandboxBase, table: SandboxTable, changes: readonly LinkCellChange[]): void {
  for (const field of table.fields) {
    if (field.type !== LINK_FIELD_TYPE) continue;
    const linkedTable = base.tables.find((candidate) => candidate.id === field.options?.linkedTableId);
    if (!linkedTable) continue;
    for (const { before, after } of changes) {
      const previous = linkIds(before[field.id]);
      for (const id of linkIds(after[field.id])) {
        if (!previous.has(id) && !linkedTable.records.has(id)) throw rowDoesNotExist(id);
      }
    }
  }
}

/**
 * Applies the second side of `changes` (already stored in `table`) and returns the records it updated, in the order
 * they were first touched: per written record and link field, the records it dropped, then those it added.
 */
export function syncLinkedRecords(
  base: SandboxBase,
  table: SandboxTable,
  changes: readonly LinkCellChange[],
  deletedIds: ReadonlySet<string> = new Set(),
): LinkedRecordsUpdate[] {
  const edits = new CellEdits();
  for (const field of table.fields) {
    const inverse = inverseFieldOf(base, table, field);
    if (!inverse) continue;
    for (const { recordId, before, after } of changes) {
      const previous = linkIds(before[field.id]);
      const current = linkIds(after[field.id]);
      for (const id of previous) if (!current.has(id)) edits.remove(inverse.table, id, inverse.field, new Set([recordId]));
      for (const id of current) if (!previous.has(id)) edits.add(inverse.table, id, inverse.field, recordId);
    }
  }
  if (deletedIds.size > 0) {
    for (const field of selfLinkFields(table)) {
      for (const record of table.records.values()) {
        const ids = record.cellsByFieldId[field.id];
        if (Array.isArray(ids) && ids.some((id) => deletedIds.has(id as string))) edits.remove(table, record.id, field, deletedIds);
      }
    }
  }
  return edits.apply();
}

function selfLinkFields(table: SandboxTable): SandboxField[] {
  return table.fields.filter((field) => field.type === LINK_FIELD_TYPE && field.options?.linkedTableId === table.id);
}

function linkIds(value: unknown): Set<string> {
  return new Set(Array.isArray(value) ? (value as string[]) : []);
}

/** New cells per record (copies; the stored ones are replaced at apply, so earlier snapshots stay as they were). */
class CellEdits {
  private readonly tables = new Map<SandboxTable, Map<string, Cells>>();

  add(table: SandboxTable, recordId: string, field: SandboxField, linkedId: string): void {
    this.edit(table, recordId, field, (ids) => (ids.includes(linkedId) ? ids : [...ids, linkedId]));
  }

  remove(table: SandboxTable, recordId: string, field: SandboxField, linkedIds: ReadonlySet<string>): void {
    this.edit(table, recordId, field, (ids) => ids.filter((id) => !linkedIds.has(id)));
  }

  apply(): LinkedRecordsUpdate[] {
    const updates: LinkedRecordsUpdate[] = [];
    for (const [table, cellsById] of this.tables) {
      const records: UpdatedRecord[] = [];
      for (const [id, cells] of cellsById) {
        const record = table.records.get(id);
        if (!record) continue;
        const changedFieldIds = table.fields
          .filter((field) => JSON.stringify(record.cellsByFieldId[field.id]) !== JSON.stringify(cells[field.id]))
          .map((field) => field.id);
        if (changedFieldIds.length === 0) continue;
        const previous = renderCellsByFieldId(table, record.cellsByFieldId);
        record.cellsByFieldId = cells;
        records.push({ id, changedFieldIds, previous, current: renderCellsByFieldId(table, cells) });
      }
      if (records.length > 0) updates.push({ table, records });
    }
    return updates;
  }

  private edit(table: SandboxTable, recordId: string, field: SandboxField, change: (ids: string[]) => string[]): void {
    const record = table.records.get(recordId);
    if (!record) return;
    let cellsById = this.tables.get(table);
    if (!cellsById) {
      cellsById = new Map();
      this.tables.set(table, cellsById);
    }
    const cells = cellsById.get(recordId) ?? { ...record.cellsByFieldId };
    const ids = change(Array.isArray(cells[field.id]) ? (cells[field.id] as string[]) : []);
    if (ids.length > 0) cells[field.id] = ids;
    else delete cells[field.id];
    cellsById.set(recordId, cells);
  }
}
