import type { EntityManager } from 'typeorm';
import type { WebhookDelivery } from '../../entities/index.js';
import { insertRows } from '../../repositories/run-sql.js';

/** Inserts new deliveries (their seq is generated) in multi-row statements, inside the caller's transaction. */
export function insertDeliveries(manager: EntityManager, rows: WebhookDelivery[]): Promise<void> {
  return insertRows(manager, 'webhook_delivery', rows.map(columnsOf));
}

/** A new delivery as stored (its seq is generated). */
function columnsOf(row: WebhookDelivery): Record<string, unknown> {
  return {
    id: row.id,
    webhook_id: row.webhookId,
    record_key: row.recordKey,
    event_type: row.eventType,
    body: row.body,
    change_count: row.changeCount,
    status: row.status,
    attempts: row.attempts,
    retry_step: row.retryStep,
    next_attempt_at: row.nextAttemptAt.toISOString(),
    coalesce_until: row.coalesceUntil?.toISOString() ?? null,
    lease_token: null,
    lease_until: null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
