/** The nine change event types of the seed, in its order. */
export const CHANGE_EVENT_TYPES = [
  'record_create',
  'record_update',
  'record_delete',
  'table_create',
  'table_update',
  'table_delete',
  'column_create',
  'column_update',
  'column_delete',
] as const;
export type ChangeEventType = (typeof CHANGE_EVENT_TYPES)[number];

export const CHANGE_KINDS = ['record', 'schema'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The seed's change sources; an upstream source we do not know is logged as `unknown`. */
export const CHANGE_SOURCES = [
  'client',
  'automation',
  'formSubmission',
  'formPageSubmission',
  'publicApi',
  'publicApiCall',
  'system',
  'sync',
  'anonymousUser',
  'unknown',
] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];

export const MONITORING_SCOPES = ['all', 'schema_only', 'records_only'] as const;
export type MonitoringScope = (typeof MONITORING_SCOPES)[number];

export function kindOf(eventType: ChangeEventType): ChangeKind {
  return eventType.startsWith('record_') ? 'record' : 'schema';
}

export function scopeAllows(scope: MonitoringScope, kind: ChangeKind): boolean {
  return scope === 'all' || (scope === 'records_only' ? kind === 'record' : kind === 'schema');
}

/**
 * One upstream change, translated from a webhook payload; the unit that is logged (per monitoring config) and
 * forwarded (per matching webhook). `position` orders and deduplicates: it is unique per upstream watch.
 */
export interface ChangeEvent {
  eventType: ChangeEventType;
  kind: ChangeKind;
  occurredAt: Date;
  tableId: string;
  tableName: string;
  /** The record, or the field id for `column_*` events; null for `table_*`. */
  recordId: string | null;
  /** Fields whose value changed (record updates) or the changed field (column events); else []. */
  fieldIds: string[];
  source: ChangeSource;
  userEmail: string | null;
  userName: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** `<upstream webhook id>:<payload cursor>:<index in payload>`: the same payload always gives the same keys. */
  position: string;
  /** record_create: the record's createdTime, when the payload gives it (the mirror keeps it). */
  createdTime?: string;
}

/** The account and upstream base a batch of changes came from. */
export interface WatchedBase {
  accountId: string;
  baseId: string;
}

/** A base whose changes are being fanned out, and the accounts that get none now (their connection cannot reach it). */
export interface IngestedBase extends WatchedBase {
  pausedAccounts: ReadonlySet<string>;
  /** The upstream webhook the changes were read from. */
  webhookId: string;
  /** The upstream no longer had every payload after the cursor (they are kept 7 days): changes were missed. */
  missedPayloads: boolean;
}
