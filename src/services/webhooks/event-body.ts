import type { ChangeEvent, ChangeEventType, ChangeSource } from '../audit/change-event.js';

/**
 * The JSON POSTed to a webhook (documented in README "Webhook forwarding" and the OpenAPI description of
 * POST /webhooks). `id` equals the `webhook-id` header and stays the same across retries.
 */
export interface WebhookEventBody {
  type: ChangeEventType;
  id: string;
  /** When the (latest) upstream change happened. */
  timestamp: string;
  data: {
    webhookId: string;
    baseId: string;
    tableId: string;
    tableName: string;
    /** The record; the field id for column events; null for table events. */
    recordId: string | null;
    /** Fields whose values changed (record updates, the union when coalesced) or the changed field; else []. */
    fieldIds: string[];
    source: ChangeSource;
    user: { email: string | null; name: string | null } | null;
    /** Cell values (records) or the field / table definition before the change; null for creations. */
    previous: Record<string, unknown> | null;
    /** … and after it; null for deletions. */
    current: Record<string, unknown> | null;
    /** Upstream changes in this delivery: more than 1 when record updates were coalesced. */
    changeCount: number;
  };
}

export function eventBodyOf(deliveryId: string, webhookId: string, baseId: string, change: ChangeEvent): WebhookEventBody {
  return {
    type: change.eventType,
    id: deliveryId,
    timestamp: change.occurredAt.toISOString(),
    data: {
      webhookId,
      baseId,
      tableId: change.tableId,
      tableName: change.tableName,
      recordId: change.recordId,
      fieldIds: [...change.fieldIds],
      source: change.source,
      user: userOf(change),
      previous: change.before,
      current: change.after,
      changeCount: 1,
    },
  };
}

/**
 * A later update of the same record folded into a pending delivery: the union of changed fields, each field's
 * earliest `previous` value and latest `current` value; time, source and user of the latest change.
 */
export function coalesce(body: WebhookEventBody, later: ChangeEvent): WebhookEventBody {
  const data = body.data;
  return {
    ...body,
    timestamp: later.occurredAt.toISOString(),
    data: {
      ...data,
      tableName: later.tableName,
      fieldIds: [...new Set([...data.fieldIds, ...later.fieldIds])].sort(),
      source: later.source,
      user: userOf(later),
      previous: data.previous || later.before ? { ...later.before, ...data.previous } : null,
      current: data.current || later.after ? { ...data.current, ...later.after } : null,
      changeCount: data.changeCount + 1,
    },
  };
}

function userOf(change: ChangeEvent): WebhookEventBody['data']['user'] {
  return change.userEmail || change.userName ? { email: change.userEmail, name: change.userName } : null;
}
