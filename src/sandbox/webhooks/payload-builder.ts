import type {
  ChangedField,
  ChangedRecord,
  CreatedRecord,
  FieldDefinitionChange,
  TableChanged,
  TableCreated,
  WebhookChangeType,
  WebhookDataType,
  WebhookPayload,
} from '../../upstream/webhook-types.js';
import type {
  FieldSnapshot,
  FieldUpdatedChange,
  RecordsCreatedChange,
  RecordsUpdatedChange,
  SandboxChange,
  TableCreatedChange,
} from '../sandbox-change.types.js';
import type { SandboxBase, SandboxTable } from '../sandbox.types.js';
import { formPageIdFor, formViewIdFor } from './action-metadata.js';
import type { ResolvedSpecification } from './webhook-specification.js';
import { toV2Cells } from './v2-cell-values.js';

export type PayloadChanges = Pick<WebhookPayload, 'changedTablesById' | 'createdTablesById' | 'destroyedTableIds'>;

const CHANGE_TYPES: Record<SandboxChange['kind'], WebhookChangeType> = {
  recordsCreated: 'add',
  recordsUpdated: 'update',
  recordsDeleted: 'remove',
  fieldCreated: 'add',
  fieldUpdated: 'update',
  fieldDeleted: 'remove',
  tableCreated: 'add',
  tableUpdated: 'update',
  tableDeleted: 'remove',
};

const FIELD_PROPERTIES = ['name', 'type', 'description', 'options'] as const;

/**
 * What one change contributes to a webhook's payload, or undefined when the specification filters it out.
 * `base` is the base as it is right after the change (for V2 cell values).
 */
export function buildPayloadChanges(change: SandboxChange, spec: ResolvedSpecification, base?: SandboxBase): PayloadChanges | undefined {
  const { filters } = spec;
  if (!matchesSource(change, spec)) return undefined;
  if (filters.changeTypes && !filters.changeTypes.includes(CHANGE_TYPES[change.kind])) return undefined;
  if (spec.scopeTableId !== undefined && change.tableId !== spec.scopeTableId) return undefined;
  const wants = (dataType: WebhookDataType) => filters.dataTypes.includes(dataType);
  switch (change.kind) {
    case 'recordsCreated':
    case 'recordsUpdated':
    case 'recordsDeleted':
      return wants('tableData') ? recordChanges(change, spec, base) : undefined;
    case 'fieldCreated':
      if (!wants('tableFields') || filters.watchSchemasOfFieldIds) return undefined;
      return tableChange(change.tableId, { createdFieldsById: { [change.field.id]: fieldDefinition(change.field) } });
    case 'fieldUpdated':
      if (!wants('tableFields') || !watchesSchemaOf(spec, change.fieldId)) return undefined;
      return fieldUpdate(change, spec);
    case 'fieldDeleted':
      if (!wants('tableFields') || !watchesSchemaOf(spec, change.fieldId)) return undefined;
      return tableChange(change.tableId, { destroyedFieldIds: [change.fieldId] });
    case 'tableCreated':
      return tableCreated(change, wants('tableMetadata'), wants('tableFields'));
    case 'tableUpdated':
      if (!wants('tableMetadata')) return undefined;
      return tableChange(change.tableId, { changedMetadata: { current: change.current, previous: change.previous } });
    case 'tableDeleted':
      return { destroyedTableIds: [change.tableId] };
  }
}

/** True when the change deletes the scope's table or a field named in a `watch*` list. */
export function invalidatesSpecification(change: SandboxChange, spec: ResolvedSpecification): boolean {
  const watched = [...(spec.filters.watchDataInFieldIds ?? []), ...(spec.filters.watchSchemasOfFieldIds ?? [])];
  if (change.kind === 'fieldDeleted') return watched.includes(change.fieldId);
  if (change.kind !== 'tableDeleted') return false;
  return change.tableId === spec.scopeTableId || change.previous.fields.some((field) => watched.includes(field.id));
}

function matchesSource(change: SandboxChange, { filters }: ResolvedSpecification): boolean {
  const { source } = change.actor;
  if (filters.fromSources && !filters.fromSources.includes(source)) return false;
  const form = filters.sourceOptions?.formSubmission;
  if (source === 'formSubmission' && form && form.viewId !== formViewIdFor(change.tableId)) return false;
  const page = filters.sourceOptions?.formPageSubmission;
  return !(source === 'formPageSubmission' && page && page.pageId !== formPageIdFor(change.baseId));
}

function watchesSchemaOf(spec: ResolvedSpecification, fieldId: string): boolean {
  const watched = spec.filters.watchSchemasOfFieldIds;
  return watched === undefined || watched.includes(fieldId);
}

function tableChange(tableId: string, changed: TableChanged): PayloadChanges {
  return { changedTablesById: { [tableId]: changed } };
}

function recordChanges(
  change: RecordsCreatedChange | RecordsUpdatedChange | Extract<SandboxChange, { kind: 'recordsDeleted' }>,
  spec: ResolvedSpecification,
  base: SandboxBase | undefined,
): PayloadChanges | undefined {
  const table = base?.tables.find((candidate) => candidate.id === change.tableId);
  let records: TableChanged;
  if (change.kind === 'recordsCreated') {
    const created: Record<string, CreatedRecord> = {};
    for (const record of change.records) {
      const cells = toV2Cells(base, table, Object.keys(record.cellValuesByFieldId), record.cellValuesByFieldId);
      created[record.id] = { createdTime: record.createdTime, cellValuesByFieldId: cells };
    }
    records = { createdRecordsById: created };
  } else if (change.kind === 'recordsUpdated') {
    const changed = changedRecords(change, spec, base, table);
    if (!changed) return undefined;
    records = { changedRecordsById: changed };
  } else {
    records = { destroyedRecordIds: change.records.map((record) => record.id) };
  }
  const changedViewsById = spec.scopeViewId === undefined ? undefined : { [spec.scopeViewId]: { ...records } };
  return tableChange(change.tableId, changedViewsById ? { ...records, changedViewsById } : records);
}

/** A record counts when a watched field changed; `current` then holds every changed field (cleared: null). */
function changedRecords(
  change: RecordsUpdatedChange,
  spec: ResolvedSpecification,
  base: SandboxBase | undefined,
  table: SandboxTable | undefined,
): Record<string, ChangedRecord> | undefined {
  const watched = spec.filters.watchDataInFieldIds;
  const { includeCellValuesInFieldIds: included, includePreviousCellValues } = spec.includes;
  const changed: Record<string, ChangedRecord> = {};
  for (const record of change.records) {
    if (watched && !record.changedFieldIds.some((id) => watched.includes(id))) continue;
    const entry: ChangedRecord = {
      current: { cellValuesByFieldId: toV2Cells(base, table, record.changedFieldIds, record.current) },
    };
    if (includePreviousCellValues) {
      entry.previous = { cellValuesByFieldId: toV2Cells(base, table, record.changedFieldIds, record.previous, record.previous) };
    }
    if (included !== undefined) {
      const candidates = included === 'all' ? (table?.fields.map((field) => field.id) ?? []) : included;
      const unchanged = candidates.filter((id) => !record.changedFieldIds.includes(id) && record.current[id] !== undefined);
      entry.unchanged = { cellValuesByFieldId: toV2Cells(base, table, unchanged, record.current) };
    }
    changed[record.id] = entry;
  }
  return Object.keys(changed).length > 0 ? changed : undefined;
}

function fieldUpdate(change: FieldUpdatedChange, spec: ResolvedSpecification): PayloadChanges {
  const current: Record<string, unknown> = {};
  const previous: Record<string, unknown> = {};
  for (const key of FIELD_PROPERTIES) {
    if (JSON.stringify(change.previous[key]) === JSON.stringify(change.current[key])) continue;
    current[key] = change.current[key] ?? null;
    previous[key] = change.previous[key] ?? null;
  }
  const changedField: ChangedField = spec.includes.includePreviousFieldDefinitions
    ? { current: current as FieldDefinitionChange, previous: previous as FieldDefinitionChange }
    : { current: current as FieldDefinitionChange };
  return tableChange(change.tableId, { changedFieldsById: { [change.fieldId]: changedField } });
}

function tableCreated(change: TableCreatedChange, metadata: boolean, fields: boolean): PayloadChanges | undefined {
  if (!metadata && !fields) return undefined;
  const created: TableCreated = {};
  if (metadata) created.metadata = { name: change.table.name, description: change.table.description ?? null };
  if (fields) created.fieldsById = Object.fromEntries(change.table.fields.map((field) => [field.id, fieldDefinition(field)]));
  return { createdTablesById: { [change.tableId]: created } };
}

function fieldDefinition(field: FieldSnapshot) {
  return { name: field.name, type: field.type };
}
