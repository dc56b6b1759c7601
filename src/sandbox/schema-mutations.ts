import { buildField } from './field-config.js';
import { addInverseField, inverseFieldOf, type TableField } from './link-fields.js';
import { changeCommon, type MutationContext } from './record-mutations.js';
import type { ChangeActor, FieldSnapshot, TableMetadata, TableSnapshot } from './sandbox-change.types.js';
import { airtableError, duplicateFieldName, duplicateTableName, invalidRequest } from './sandbox-errors.js';
import type { FieldConfig, SandboxBase, SandboxField, SandboxTable, TableConfig } from './sandbox.types.js';

export interface SchemaUpdate {
  name?: string;
  description?: string;
}

const MAX_DESCRIPTION = 20_000;

export function createTable(
  context: MutationContext,
  base: SandboxBase,
  config: TableConfig,
  options: { actor: ChangeActor; allowComputed?: boolean },
): SandboxTable {
  const name = requireName(config.name);
  if (isTableNameTaken(base, name)) throw duplicateTableName(name);
  if (config.description !== undefined) checkTableDescription(config.description);
  if (config.fields.length === 0) throw invalidRequest('Invalid request: a table needs at least one field.');
  const takenNames = new Set<string>();
  const fields = config.fields.map((fieldConfig, index) =>
    buildField(fieldConfig, {
      ids: context.ids,
      base,
      tableName: name,
      takenNames,
      isPrimary: index === 0,
      allowComputed: options.allowComputed ?? false,
    }),
  );
  const table: SandboxTable = {
    id: context.ids.next('tbl'),
    name,
    primaryFieldId: fields[0].id,
    fields,
    views: [{ id: context.ids.next('viw'), name: 'Grid view', type: 'grid' }],
    records: new Map(),
  };
  if (config.description !== undefined) table.description = config.description;
  base.tables.push(table);
  const inverses = fields.map((field) => addInverseField(context.ids, base, table, field));
  context.emit?.({ ...changeCommon(base, table, options.actor), kind: 'tableCreated', table: tableSnapshot(table) });
  for (const inverse of inverses) if (inverse) emitFieldCreated(context, base, inverse, options.actor);
  return table;
}

export function updateTable(
  context: MutationContext,
  base: SandboxBase,
  table: SandboxTable,
  update: SchemaUpdate,
  actor: ChangeActor,
): SandboxTable {
  const previous = tableMetadata(table);
  if (update.name !== undefined) {
    const name = requireName(update.name);
    if (isTableNameTaken(base, name, table)) throw duplicateTableName(name);
    table.name = name;
  }
  if (update.description !== undefined) {
    checkTableDescription(update.description);
    table.description = update.description;
  }
  const current = tableMetadata(table);
  if (previous.name !== current.name || previous.description !== current.description) {
    context.emit?.({ ...changeCommon(base, table, actor), kind: 'tableUpdated', previous, current });
  }
  return table;
}

/** The inverse fields of the table's links go with it (deleted from their tables, each with its own event). */
export function deleteTable(context: MutationContext, base: SandboxBase, table: SandboxTable, actor: ChangeActor): void {
  const inverses = table.fields.map((field) => inverseFieldOf(base, table, field));
  base.tables = base.tables.filter((candidate) => candidate !== table);
  context.emit?.({
    ...changeCommon(base, table, actor),
    kind: 'tableDeleted',
    previous: tableSnapshot(table),
    recordCount: table.records.size,
  });
  for (const inverse of inverses) if (inverse) removeField(context, base, inverse.table, inverse.field, actor);
}

export function createField(
  context: MutationContext,
  base: SandboxBase,
  table: SandboxTable,
  config: FieldConfig,
  actor: ChangeActor,
): SandboxField {
  const takenNames = new Set(table.fields.map((field) => field.name.toLowerCase()));
  const field = buildField(config, { ids: context.ids, base, tableName: table.name, takenNames, isPrimary: false, allowComputed: false });
  table.fields.push(field);
  const inverse = addInverseField(context.ids, base, table, field);
  emitFieldCreated(context, base, { table, field }, actor);
  if (inverse) emitFieldCreated(context, base, inverse, actor);
  return field;
}

function emitFieldCreated(context: MutationContext, base: SandboxBase, { table, field }: TableField, actor: ChangeActor): void {
  context.emit?.({ ...changeCommon(base, table, actor), kind: 'fieldCreated', field: fieldSnapshot(field) });
}

export function updateField(
  context: MutationContext,
  base: SandboxBase,
  table: SandboxTable,
  field: SandboxField,
  update: SchemaUpdate,
  actor: ChangeActor,
): SandboxField {
  const previous = fieldSnapshot(field);
  if (update.name !== undefined) {
    const name = update.name.trim();
    const clash = table.fields.some((other) => other !== field && other.name.toLowerCase() === name.toLowerCase());
    if (name === '' || clash) throw duplicateFieldName(name);
    field.name = name;
  }
  if (update.description !== undefined) {
    if (update.description.length > MAX_DESCRIPTION) throw invalidRequest();
    if (update.description === '') delete field.description;
    else field.description = update.description;
  }
  if (previous.name !== field.name || previous.description !== field.description) {
    context.emit?.({
      ...changeCommon(base, table, actor),
      kind: 'fieldUpdated',
      fieldId: field.id,
      previous,
      current: fieldSnapshot(field),
    });
  }
  return field;
}

export function deleteField(
  context: MutationContext,
  base: SandboxBase,
  table: SandboxTable,
  field: SandboxField,
  actor: ChangeActor,
): void {
  if (field.id === table.primaryFieldId) {
    throw airtableError(422, 'CANNOT_DELETE_PRIMARY_FIELD', 'The primary field of a table cannot be deleted.');
  }
  const inverse = inverseFieldOf(base, table, field);
  removeField(context, base, table, field, actor);
  if (inverse) removeField(context, base, inverse.table, inverse.field, actor);
}

/** Deleting either side of a link deletes the other side too (its cells go without record events, like these). */
function removeField(context: MutationContext, base: SandboxBase, table: SandboxTable, field: SandboxField, actor: ChangeActor): void {
  table.fields = table.fields.filter((candidate) => candidate !== field);
  for (const record of table.records.values()) delete record.cellsByFieldId[field.id];
  context.emit?.({ ...changeCommon(base, table, actor), kind: 'fieldDeleted', fieldId: field.id, previous: fieldSnapshot(field) });
}

export function fieldSnapshot(field: SandboxField): FieldSnapshot {
  return structuredClone(field);
}

export function tableSnapshot(table: SandboxTable): TableSnapshot {
  const snapshot: TableSnapshot = {
    id: table.id,
    name: table.name,
    primaryFieldId: table.primaryFieldId,
    fields: table.fields.map(fieldSnapshot),
  };
  if (table.description !== undefined) snapshot.description = table.description;
  return snapshot;
}

function tableMetadata(table: SandboxTable): TableMetadata {
  return { name: table.name, description: table.description ?? null };
}

function requireName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw invalidRequest('Invalid request: the name must not be empty.');
  return trimmed;
}

function checkTableDescription(description: string): void {
  if (description === '' || description.length > MAX_DESCRIPTION) {
    throw invalidRequest('Invalid request: a description must be non-empty and at most 20,000 characters.');
  }
}

function isTableNameTaken(base: SandboxBase, name: string, except?: SandboxTable): boolean {
  return base.tables.some((table) => table !== except && table.name.toLowerCase() === name.toLowerCase());
}
