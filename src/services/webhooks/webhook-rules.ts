import { invalidRequest } from '../../errors.js';
import { CHANGE_EVENT_TYPES, type ChangeEvent, type ChangeEventType } from '../audit/change-event.js';

/** A tracked base's count crossed one of its usage thresholds (CONTRACT §10); not a change of the base. */
export const USAGE_THRESHOLD_EVENT = 'usage_threshold';

/** What a webhook may forward: the nine change event types and usage alerts. */
export const WEBHOOK_EVENTS = [...CHANGE_EVENT_TYPES, USAGE_THRESHOLD_EVENT] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Whether the webhook forwards changes of its base, so that the base must be watched upstream. */
export const forwardsChanges = (webhook: { event: string }) => webhook.event !== USAGE_THRESHOLD_EVENT;

/** The event types on which a webhook may name one column (CONTRACT §3). */
const COLUMN_EVENTS: readonly ChangeEventType[] = ['record_update', 'column_update', 'column_delete'];

export interface WebhookTarget {
  event: WebhookEvent;
  /** "" for table events. */
  tableId: string;
  columnId: string | null;
}

/**
 * The target rules of CONTRACT §3: `tableId` required for record_* and column_* events and "" (or absent) for
 * table_* events and usage_threshold (§10); `columnId` only for record_update, column_update and column_delete.
 */
export function targetOf(input: { event: string; tableId?: string; columnId?: string | null }): WebhookTarget {
  const event = input.event as WebhookEvent;
  if (!WEBHOOK_EVENTS.includes(event)) throw invalidRequest(`event must be one of ${WEBHOOK_EVENTS.join(', ')}`);
  const tableEvent = event.startsWith('table_') || event === USAGE_THRESHOLD_EVENT;
  const tableId = input.tableId ?? '';
  if (tableEvent && tableId !== '') throw invalidRequest(`tableId must be "" for ${event} webhooks`);
  if (!tableEvent && tableId === '') throw invalidRequest(`tableId is required for ${event} webhooks`);
  const columnId = input.columnId ?? null;
  if (columnId !== null && !COLUMN_EVENTS.includes(event as ChangeEventType)) {
    throw invalidRequest(`columnId is allowed only for ${COLUMN_EVENTS.join(', ')} webhooks`);
  }
  return { event, tableId, columnId };
}

/**
 * Whether a change fires a webhook: same event type; same table (any table for table events); and with a column,
 * a record update that changed that field, or a column event of that field.
 */
export function firesOn(target: WebhookTarget, change: ChangeEvent): boolean {
  if (target.event !== change.eventType) return false;
  if (target.event.startsWith('table_')) return true;
  if (target.tableId !== change.tableId) return false;
  if (target.columnId === null) return true;
  return change.eventType === 'record_update' ? change.fieldIds.includes(target.columnId) : change.recordId === target.columnId;
}

/** The ordered line a delivery belongs to: its record, the field of a column event, the table of a table event. */
export function lineOf(change: ChangeEvent): string {
  return change.recordId ?? change.tableId;
}
