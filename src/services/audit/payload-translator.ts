import { CHANGE_SOURCES, type ChangeEvent, type ChangeEventType, type ChangeSource } from './change-event.js';

/**
 * The subset of a v0 webhook payload the translation reads. Kept local and loose on purpose: "no optional key is
 * guaranteed to appear, and new keys may be added at any time".
 */
export interface PayloadLike {
  timestamp: string;
  baseTransactionNumber?: number;
  actionMetadata?: { source?: string; sourceMetadata?: { user?: { email?: string; name?: string } } } | null;
  changedTablesById?: Record<string, TableChangedLike>;
  createdTablesById?: Record<string, TableCreatedLike>;
  destroyedTableIds?: string[];
  error?: boolean;
  code?: string;
}

type Cells = Record<string, unknown>;
type Definition = Record<string, unknown>;

interface TableChangedLike {
  changedMetadata?: { current?: Definition; previous?: Definition };
  createdFieldsById?: Record<string, Definition>;
  changedFieldsById?: Record<string, { current?: Definition; previous?: Definition }>;
  destroyedFieldIds?: string[];
  createdRecordsById?: Record<string, { createdTime?: string; cellValuesByFieldId?: Cells }>;
  changedRecordsById?: Record<string, { current?: { cellValuesByFieldId?: Cells }; previous?: { cellValuesByFieldId?: Cells } }>;
  destroyedRecordIds?: string[];
}

interface TableCreatedLike {
  metadata?: Definition;
  fieldsById?: Record<string, Definition>;
  recordsById?: Record<string, { createdTime?: string; cellValuesByFieldId?: Cells }>;
}

/** Table id → name, kept across payloads: payloads name a table only when it is created or renamed. */
export type TableNames = Record<string, string>;

type Draft = Omit<ChangeEvent, 'occurredAt' | 'source' | 'userEmail' | 'userName' | 'position' | 'kind' | 'tableName'>;

/**
 * One payload → its change events, in a fixed order (tables created, then per changed table: metadata, fields
 * created/changed/deleted, records created/changed/deleted, then tables destroyed), so that the same payload
 * always gives the same positions. `names` is read and updated.
 */
export function translatePayload(payload: PayloadLike, positionPrefix: string, names: TableNames): ChangeEvent[] {
  const drafts: Draft[] = [];
  for (const [tableId, created] of Object.entries(payload.createdTablesById ?? {})) {
    if (typeof created.metadata?.name === 'string') names[tableId] = created.metadata.name;
    drafts.push(draft('table_create', tableId, null, [], null, { ...created.metadata, fields: created.fieldsById ?? {} }));
    for (const [recordId, record] of Object.entries(created.recordsById ?? {})) {
      drafts.push(recordCreated(tableId, recordId, record));
    }
  }
  for (const [tableId, changed] of Object.entries(payload.changedTablesById ?? {})) {
    const metadata = changed.changedMetadata;
    if (metadata) {
      if (typeof metadata.current?.name === 'string') names[tableId] = metadata.current.name;
      drafts.push(draft('table_update', tableId, null, [], metadata.previous ?? null, metadata.current ?? null));
    }
    for (const [fieldId, field] of Object.entries(changed.createdFieldsById ?? {})) {
      drafts.push(draft('column_create', tableId, fieldId, [fieldId], null, field));
    }
    for (const [fieldId, field] of Object.entries(changed.changedFieldsById ?? {})) {
      drafts.push(draft('column_update', tableId, fieldId, [fieldId], field.previous ?? null, field.current ?? null));
    }
    for (const fieldId of changed.destroyedFieldIds ?? []) {
      drafts.push(draft('column_delete', tableId, fieldId, [fieldId], null, null));
    }
    for (const [recordId, record] of Object.entries(changed.createdRecordsById ?? {})) {
      drafts.push(recordCreated(tableId, recordId, record));
    }
    for (const [recordId, record] of Object.entries(changed.changedRecordsById ?? {})) {
      const after = record.current?.cellValuesByFieldId ?? {};
      const before = record.previous?.cellValuesByFieldId;
      const fieldIds = [...new Set([...Object.keys(after), ...Object.keys(before ?? {})])].sort();
      drafts.push(draft('record_update', tableId, recordId, fieldIds, before ?? null, after));
    }
    for (const recordId of changed.destroyedRecordIds ?? []) {
      drafts.push(draft('record_delete', tableId, recordId, [], null, null));
    }
  }
  for (const tableId of payload.destroyedTableIds ?? []) {
    drafts.push(draft('table_delete', tableId, null, [], names[tableId] ? { name: names[tableId] } : null, null));
  }

  const occurredAt = new Date(payload.timestamp);
  const actor = actorOf(payload);
  return drafts.map((d, index) => ({
    ...d,
    kind: d.eventType.startsWith('record_') ? 'record' : 'schema',
    tableName: names[d.tableId] ?? '',
    occurredAt,
    ...actor,
    position: `${positionPrefix}:${index}`,
  }));
}

function recordCreated(tableId: string, recordId: string, record: { createdTime?: string; cellValuesByFieldId?: Cells }): Draft {
  const created = draft('record_create', tableId, recordId, [], null, record.cellValuesByFieldId ?? {});
  return typeof record.createdTime === 'string' ? { ...created, createdTime: record.createdTime } : created;
}

function draft(
  eventType: ChangeEventType,
  tableId: string,
  recordId: string | null,
  fieldIds: string[],
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Draft {
  return { eventType, tableId, recordId, fieldIds, before, after };
}

function actorOf(payload: PayloadLike): Pick<ChangeEvent, 'source' | 'userEmail' | 'userName'> {
  const source = payload.actionMetadata?.source;
  const user = payload.actionMetadata?.sourceMetadata?.user;
  return {
    source: (CHANGE_SOURCES as readonly string[]).includes(source ?? '') ? (source as ChangeSource) : 'unknown',
    userEmail: user?.email ?? null,
    userName: user?.name ?? null,
  };
}

/** Table ids a payload refers to without naming them (the caller looks their names up in the base schema). */
export function unnamedTableIds(payload: PayloadLike, names: TableNames): string[] {
  return Object.keys(payload.changedTablesById ?? {}).filter(
    (id) => names[id] === undefined && typeof payload.changedTablesById![id]!.changedMetadata?.current?.name !== 'string',
  );
}
