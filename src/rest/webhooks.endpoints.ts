import { CHANGE_EVENT_TYPES, CHANGE_SOURCES } from '../services/audit/change-event.js';
import { deliveryLogInput } from '../services/webhooks/delivery-log.input.js';
import { webhookInput } from '../services/webhooks/webhook.input.js';
import { WEBHOOK_EVENTS } from '../services/webhooks/webhook-rules.js';
import { UsageMetric } from './usage-insight.endpoints.js';
import { defineRoute } from './http/route.js';
import { ServiceId, Timestamp } from './schemas.js';
import { z } from './zod.js';

const tag = 'Webhooks';

/** Endpoint 1's element: exactly the nine seed fields. */
export const WebhookBody = z
  .strictObject({
    webhookId: z.string().openapi({ format: 'uuid' }),
    baseId: z.string(),
    event: z.enum(WEBHOOK_EVENTS),
    tableId: z.string().openapi({ description: '"" for table events and usage_threshold' }),
    columnId: z.string().nullable(),
    webhookUrl: z.string(),
    coalesceUpdates: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('Webhook');

const CellValues = z.record(z.string(), z.unknown()).nullable();

const ChangeEventBody = z
  .strictObject({
    type: z.enum(CHANGE_EVENT_TYPES).openapi({ description: 'the webhook’s event' }),
    id: z.string().openapi({ format: 'uuid', description: 'the delivery id, equal to the `webhook-id` header; the same on every retry' }),
    timestamp: Timestamp.openapi({ description: 'when the (latest) upstream change happened' }),
    data: z.strictObject({
      webhookId: z.string().openapi({ format: 'uuid' }),
      baseId: z.string(),
      tableId: z.string(),
      tableName: z.string(),
      recordId: z.string().nullable().openapi({ description: 'the record; the field id for column events; null for table events' }),
      fieldIds: z
        .array(z.string())
        .openapi({ description: 'fields whose values changed (the union when coalesced), or the changed field' }),
      source: z.enum(CHANGE_SOURCES),
      user: z.strictObject({ email: z.string().nullable(), name: z.string().nullable() }).nullable(),
      previous: CellValues.openapi({
        description: 'cell values by field id, or the field / table definition, before; null for creations; the earliest when coalesced',
      }),
      current: CellValues.openapi({ description: 'the same after; null for deletions; the latest when coalesced' }),
      changeCount: z.number().int().min(1).openapi({ description: 'upstream changes in this delivery (more than 1 when coalesced)' }),
    }),
  })
  .openapi('WebhookChangeEvent', { description: 'A change of the webhook’s base (the nine change event types)' });

const UsageThresholdEventBody = z
  .strictObject({
    type: z.literal('usage_threshold'),
    id: z.string().openapi({ format: 'uuid', description: 'the delivery id, equal to the `webhook-id` header; the same on every retry' }),
    timestamp: Timestamp.openapi({ description: 'when the alert was recorded' }),
    data: z.strictObject({
      webhookId: z.string().openapi({ format: 'uuid' }),
      baseId: z.string(),
      usageBaseId: z.string().openapi({ format: 'uuid' }),
      metric: UsageMetric,
      threshold: z.number().int().openapi({ description: 'the percent of the limit crossed' }),
      value: z.number().int().openapi({ description: 'records, or bytes of attachment storage, counted' }),
      limit: z.number().int(),
      percent: z.number().openapi({ description: 'value ÷ limit × 100, to one decimal' }),
      date: z.string().openapi({ description: 'the counted day, YYYY-MM-DD' }),
    }),
  })
  .openapi('WebhookUsageThresholdEvent', {
    description: 'A count of a tracked base crossed one of its usage thresholds upwards (GET /usage/alerts)',
  });

export const WebhookEventBody = z.union([ChangeEventBody, UsageThresholdEventBody]).openapi('WebhookEvent', {
  description:
    'The JSON body POSTed to `webhookUrl`, signed per Standard Webhooks: headers `webhook-id` (= `id`), `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded part of the secret after `whsec_`. For 24 hours after a rotation a second, space-separated signature is made with the previous secret.',
});

export const DeliveryBody = z
  .strictObject({
    id: z.string().openapi({ format: 'uuid', description: 'the `webhook-id` header of every attempt' }),
    status: z.enum(['pending', 'succeeded', 'failed']),
    eventType: z.enum(WEBHOOK_EVENTS),
    changeCount: z.number().int().min(1),
    nextAttemptAt: Timestamp.nullable().openapi({ description: 'when the next attempt is due; null unless pending' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    payload: WebhookEventBody,
    attempts: z.array(
      z
        .strictObject({
          attemptedAt: Timestamp,
          statusCode: z.number().int().nullable().openapi({ description: 'the receiver’s status; null when no answer came' }),
          durationMs: z.number().int().min(0),
          error: z.string().nullable(),
        })
        .openapi('WebhookDeliveryAttempt'),
    ),
  })
  .openapi('WebhookDelivery');

const WebhookParams = z.object({ webhookId: ServiceId });
const DeliveryParams = z.object({ webhookId: ServiceId, deliveryId: ServiceId });

export const webhookRoutes = {
  list: defineRoute({
    method: 'get',
    path: '/webhooks',
    operationId: 'listWebhooks',
    summary: 'List active webhooks',
    description: 'Only active webhooks (deleted and deactivated ones are gone from this list), oldest first.',
    tag,
    query: webhookInput.list,
    success: { status: 200, description: 'The caller’s active webhooks', schema: z.strictObject({ webhooks: z.array(WebhookBody) }) },
    errors: [400, 401, 429],
  }),
  create: defineRoute({
    method: 'post',
    path: '/webhooks',
    operationId: 'createWebhook',
    summary: 'Forward a base’s changes to a URL (extension)',
    description: [
      '`tableId` is required for `record_*` and `column_*` events and `""` (or absent) for `table_*` events and `usage_threshold`; `columnId` only for `record_update` (fires when that field’s value changed), `column_update` and `column_delete` (that field). The base, table and column must exist upstream. 409 `conflict` when the account has as many active webhooks on the base as its quota allows (`MAX_WEBHOOKS_PER_BASE`, default 10).',
      '`webhookUrl` must be https (plain http only for hosts in `WEBHOOK_ALLOWED_HOSTS`) and must not resolve to a loopback, private, link-local, CGNAT or metadata address unless its host is allow-listed; it is checked again before every delivery, and the connection goes to the address checked.',
      'A `usage_threshold` webhook gets the usage alerts of the caller’s tracked base of that `baseId` (GET /usage/alerts). Each matching change or alert is POSTed as a `WebhookEvent` (see the schema), signed with the returned `secret` (shown once). Only 2xx is success; 410 deactivates the webhook; 408, 429, 5xx, time-outs (15 s) and connection errors are retried (by default after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, or a longer `Retry-After`), then the delivery fails; other answers, redirects included, fail it at once. A webhook whose deliveries all failed for 5 days is deactivated. Deliveries of one record go out in order. With `coalesceUpdates`, `record_update` events of one record merge while updates keep coming within 5 s (at most 30 s).',
    ].join('\n\n'),
    tag,
    body: webhookInput.create,
    success: {
      status: 201,
      description: 'The webhook and its signing secret (`whsec_…`, shown only here)',
      schema: z.strictObject({ webhook: WebhookBody, secret: z.string() }),
    },
    errors: [400, 401, 404, 409, 413, 429, 502],
  }),
  remove: defineRoute({
    method: 'delete',
    path: '/webhooks/{webhookId}',
    operationId: 'deleteWebhook',
    summary: 'Stop a webhook (extension)',
    description:
      'The webhook stops being active: it leaves GET /webhooks and its pending deliveries are dropped. Its delivery log stays readable.',
    tag,
    params: WebhookParams,
    success: { status: 204, description: 'Deactivated' },
    errors: [401, 404, 429],
  }),
  deliveries: defineRoute({
    method: 'get',
    path: '/webhooks/{webhookId}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'Delivery log, newest first (extension)',
    description:
      'Every delivery with each attempt’s time, status code, duration and error. Readable for deactivated webhooks too. `nextCursor` is present only when an older page exists.',
    tag,
    params: WebhookParams,
    query: deliveryLogInput.list,
    success: {
      status: 200,
      description: 'A page of deliveries',
      schema: z.strictObject({ deliveries: z.array(DeliveryBody), nextCursor: z.string().optional() }),
    },
    errors: [400, 401, 404, 429],
  }),
  retry: defineRoute({
    method: 'post',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
    operationId: 'retryWebhookDelivery',
    summary: 'Send a delivery again (extension)',
    description: 'Queues the delivery now with a fresh retry schedule and the same `webhook-id`, whatever its state. Active webhooks only.',
    tag,
    params: DeliveryParams,
    success: { status: 200, description: 'The queued delivery', schema: z.strictObject({ delivery: DeliveryBody }) },
    errors: [401, 404, 429],
  }),
  rotateSecret: defineRoute({
    method: 'post',
    path: '/webhooks/{webhookId}/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret (extension)',
    description:
      'The new secret signs from now on; for 24 hours the previous one adds a second signature, so receivers can switch without losing a delivery.',
    tag,
    params: WebhookParams,
    success: { status: 200, description: 'The new secret (shown only here)', schema: z.strictObject({ secret: z.string() }) },
    errors: [401, 404, 429],
  }),
};
