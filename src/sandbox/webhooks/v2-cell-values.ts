import type { CellValuesByFieldId } from '../../upstream/webhook-types.js';
import type { SandboxBase, SandboxField, SandboxTable } from '../sandbox.types.js';

interface Choice {
  id: string;
  name: string;
  color?: string;
}

/**
 * Converts cells from the REST read format to the "V2" format of webhook payloads: selects become
 * `{id, name, color?}`, linked records `[{id, name}]` (name = the linked record's primary value), lookups
 * `{valuesByLinkedRecordId, linkedRecordIds}` when their link can be followed. Other types are the same in both.
 * `recordCells` are all of the record's cells (REST format), needed to follow a lookup's link.
 */
export function toV2Cells(
  base: SandboxBase | undefined,
  table: SandboxTable | undefined,
  fieldIds: Iterable<string>,
  values: CellValuesByFieldId,
  recordCells: CellValuesByFieldId = values,
): CellValuesByFieldId {
  const converted: CellValuesByFieldId = {};
  for (const fieldId of fieldIds) {
    const value = values[fieldId] ?? null;
    const field = table?.fields.find((candidate) => candidate.id === fieldId);
    converted[fieldId] = value === null || !field ? value : toV2Cell(base, field, value, recordCells);
  }
  return converted;
}

function toV2Cell(base: SandboxBase | undefined, field: SandboxField, value: unknown, recordCells: CellValuesByFieldId): unknown {
  switch (field.type) {
    case 'singleSelect':
      return typeof value === 'string' ? choiceOf(field, value) : value;
    case 'multipleSelects':
      return Array.isArray(value) ? value.map((name) => (typeof name === 'string' ? choiceOf(field, name) : name)) : value;
    case 'multipleRecordLinks':
      return Array.isArray(value) ? value.map((id) => linkedRecord(base, field.options?.linkedTableId, id)) : value;
    case 'multipleLookupValues':
      return lookupOf(base, field, recordCells) ?? value;
    default:
      return value;
  }
}

function choiceOf(field: SandboxField, name: string): Choice {
  const choices = (field.options?.choices ?? []) as Choice[];
  const choice = choices.find((candidate) => candidate.name === name);
  if (!choice) return { id: '', name };
  return choice.color === undefined ? { id: choice.id, name: choice.name } : { id: choice.id, name: choice.name, color: choice.color };
}

function linkedRecord(base: SandboxBase | undefined, linkedTableId: unknown, id: unknown): { id: unknown; name: string } {
  const table = base?.tables.find((candidate) => candidate.id === linkedTableId);
  const record = typeof id === 'string' ? table?.records.get(id) : undefined;
  return { id, name: record && table ? displayName(record.cellsByFieldId[table.primaryFieldId]) : '' };
}

/** Lookups are computed and never written through the API; seeded ones are followed when their options say how. */
function lookupOf(base: SandboxBase | undefined, field: SandboxField, recordCells: CellValuesByFieldId): unknown {
  const { recordLinkFieldId, fieldIdInLinkedTable } = (field.options ?? {}) as Record<string, unknown>;
  const linkedIds = recordCells[recordLinkFieldId as string];
  if (typeof recordLinkFieldId !== 'string' || typeof fieldIdInLinkedTable !== 'string' || !Array.isArray(linkedIds)) return undefined;
  const linkField = base?.tables.flatMap((candidate) => candidate.fields).find((candidate) => candidate.id === recordLinkFieldId);
  const table = base?.tables.find((candidate) => candidate.id === linkField?.options?.linkedTableId);
  const valuesByLinkedRecordId: Record<string, unknown[]> = {};
  for (const id of linkedIds as string[]) {
    const cell = table?.records.get(id)?.cellsByFieldId[fieldIdInLinkedTable];
    valuesByLinkedRecordId[id] = cell === undefined ? [] : Array.isArray(cell) ? [...cell] : [cell];
  }
  return { valuesByLinkedRecordId, linkedRecordIds: [...linkedIds] };
}

function displayName(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(displayName).join(', ');
  const { name } = value as { name?: unknown };
  return typeof name === 'string' ? name : '';
}
