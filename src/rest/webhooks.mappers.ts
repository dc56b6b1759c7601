import type { Webhook } from '../entities/index.js';
import type { DeliveryView } from '../services/webhooks/delivery-log.service.js';

/** Exactly the nine fields of the seed's Webhook. */
export const toWebhookResponse = (webhook: Webhook) => ({
  webhookId: webhook.id,
  baseId: webhook.baseId,
  event: webhook.event,
  tableId: webhook.tableId,
  columnId: webhook.columnId,
  webhookUrl: webhook.webhookUrl,
  coalesceUpdates: webhook.coalesceUpdates,
  createdAt: webhook.createdAt.toISOString(),
  updatedAt: webhook.updatedAt.toISOString(),
});

export const toDeliveryResponse = (delivery: DeliveryView) => ({
  id: delivery.id,
  status: delivery.status,
  eventType: delivery.eventType,
  changeCount: delivery.changeCount,
  nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
  createdAt: delivery.createdAt.toISOString(),
  updatedAt: delivery.updatedAt.toISOString(),
  payload: delivery.payload,
  attempts: delivery.attempts.map((a) => ({
    attemptedAt: a.attemptedAt.toISOString(),
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    error: a.error,
  })),
});
