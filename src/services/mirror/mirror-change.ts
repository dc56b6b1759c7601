import type { ChangeEvent } from '../audit/change-event.js';
import type { MirrorSchema } from './mirror-schema.js';
import { fieldTypesOf } from './mirror-schema.js';
import { toRestCells } from './rest-cells.js';

/**
 * One change as the mirror keeps it: JSON-safe (a seed's pending changes are stored), cells in the REST API's format.
 * Record changes carry `recordId`; schema changes carry the field id there (column_*) or an empty string (table_*).
 */
export interface MirrorChange {
  eventType: ChangeEvent['eventType'];
  tableId: string;
  recordId: string;
  /** ISO instant of the change. */
  at: string;
  source: string;
  userEmail: string | null;
  /** record_create: its createdTime. */
  createdTime: string | null;
  /** record_create: every cell; record_update: the changed cells (null: cleared); schema changes: the definition. */
  cells: Record<string, unknown>;
}

export function toMirrorChange(event: ChangeEvent, schema: MirrorSchema): MirrorChange {
  const record = event.kind === 'record';
  const after = event.after ?? {};
  return {
    eventType: event.eventType,
    tableId: event.tableId,
    recordId: event.recordId ?? '',
    at: event.occurredAt.toISOString(),
    source: event.source,
    userEmail: event.userEmail,
    createdTime: event.createdTime ?? null,
    cells: record ? toRestCells(after, fieldTypesOf(schema, event.tableId)) : after,
  };
}

export const isRecordChange = (change: MirrorChange) => change.eventType.startsWith('record_');
