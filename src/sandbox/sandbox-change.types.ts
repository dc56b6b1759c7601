export const CHANGE_SOURCES = [
  'client',
  'automation',
  'formSubmission',
  'formPageSubmission',
  'publicApi',
  'system',
  'sync',
  'anonymousUser',
] as const;

export type ChangeSource = (typeof CHANGE_SOURCES)[number];

export interface ChangeUser {
  id: string;
  email: string;
  name?: string;
}

export interface ChangeActor {
  source: ChangeSource;
  user?: ChangeUser;
}

/** Cell values in the REST read format (attachments with urls), keyed by field id, empty cells left out. */
export type CellValuesByFieldId = Record<string, unknown>;

export interface FieldSnapshot {
  id: string;
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown>;
}

export interface TableSnapshot {
  id: string;
  name: string;
  description?: string;
  primaryFieldId: string;
  fields: FieldSnapshot[];
}

export interface TableMetadata {
  name: string;
  description: string | null;
}

interface ChangeCommon {
  baseId: string;
  tableId: string;
  /** The table's name when the change happened (its last name for a deleted table). */
  tableName: string;
  at: Date;
  actor: ChangeActor;
}

export interface CreatedRecord {
  id: string;
  createdTime: string;
  cellValuesByFieldId: CellValuesByFieldId;
}

export interface UpdatedRecord {
  id: string;
  /** Fields whose value differs; never empty (records left unchanged produce no entry). */
  changedFieldIds: string[];
  /** Every non-empty cell before the write. */
  previous: CellValuesByFieldId;
  /** Every non-empty cell after the write. */
  current: CellValuesByFieldId;
}

export interface DeletedRecord {
  id: string;
  createdTime: string;
  previous: CellValuesByFieldId;
}

export interface RecordsCreatedChange extends ChangeCommon {
  kind: 'recordsCreated';
  records: CreatedRecord[];
}

export interface RecordsUpdatedChange extends ChangeCommon {
  kind: 'recordsUpdated';
  records: UpdatedRecord[];
}

export interface RecordsDeletedChange extends ChangeCommon {
  kind: 'recordsDeleted';
  records: DeletedRecord[];
}

export interface TableCreatedChange extends ChangeCommon {
  kind: 'tableCreated';
  table: TableSnapshot;
}

export interface TableUpdatedChange extends ChangeCommon {
  kind: 'tableUpdated';
  previous: TableMetadata;
  current: TableMetadata;
}

export interface TableDeletedChange extends ChangeCommon {
  kind: 'tableDeleted';
  previous: TableSnapshot;
  recordCount: number;
}

export interface FieldCreatedChange extends ChangeCommon {
  kind: 'fieldCreated';
  field: FieldSnapshot;
}

export interface FieldUpdatedChange extends ChangeCommon {
  kind: 'fieldUpdated';
  fieldId: string;
  previous: FieldSnapshot;
  current: FieldSnapshot;
}

export interface FieldDeletedChange extends ChangeCommon {
  kind: 'fieldDeleted';
  fieldId: string;
  previous: FieldSnapshot;
}

/** Emitted as `events.emit('change', change)` after every mutation, synchronously. Treat as read-only. */
export type SandboxChange =
  | RecordsCreatedChange
  | RecordsUpdatedChange
  | RecordsDeletedChange
  | TableCreatedChange
  | TableUpdatedChange
  | TableDeletedChange
  | FieldCreatedChange
  | FieldUpdatedChange
  | FieldDeletedChange;

export type SandboxChangeKind = SandboxChange['kind'];
