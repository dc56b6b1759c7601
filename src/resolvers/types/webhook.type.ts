import { DateTimeResolver, JSONObjectResolver, NonNegativeIntResolver, PositiveIntResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { Webhook, WebhookDeliveryStatus as DeliveryStatus } from '../../entities/index.js';
import type { WebhookEvent } from '../../services/webhooks/webhook-rules.js';
import type { DeliveryView } from '../../services/webhooks/delivery-log.service.js';
import { toGlobalId } from '../relay/global-id.js';
import { WebhookEventEnum } from './change-enums.js';
import { serviceEnum } from './graphql-enum.js';
import { Node } from './node.type.js';

/** A forwarding webhook: the nine REST fields (`webhookId` is `restId`); its deliveries are resolved by WebhookResolver. */
@ObjectType('Webhook', {
  implements: Node,
  description: 'Forwards a base’s changes of one event type to a URL, signed (Standard Webhooks) and retried (REST `Webhook`)',
})
export class WebhookType extends Node {
  @Field(() => String, { description: 'The id of REST paths /webhooks/{webhookId} (`webhookId` in REST, a UUID)' })
  restId: string;

  @Field(() => ID, { description: 'The upstream base (app…) whose changes are forwarded' })
  baseId: string;

  @Field(() => WebhookEventEnum, { description: 'The one event type forwarded' })
  event: WebhookEvent;

  @Field(() => String, { description: 'The table (tbl…) watched; "" for TABLE_* events (every table) and USAGE_THRESHOLD' })
  tableId: string;

  @Field(() => String, {
    nullable: true,
    description: 'Only this field (fld…): RECORD_UPDATE fires when its value changed, COLUMN_UPDATE and COLUMN_DELETE for it; null: any',
  })
  columnId: string | null;

  // A String, not the URL scalar: that one would answer a normalised spelling, not the URL as registered.
  @Field(() => String, {
    description: 'Where deliveries are POSTed, in the normal form it was stored in (https, or http for allow-listed hosts)',
  })
  webhookUrl: string;

  @Field(() => Boolean, {
    description:
      'RECORD_UPDATE only: updates of one record merge into its pending delivery while they keep coming within 5 s, for at most 30 s (by default)',
  })
  coalesceUpdates: boolean;

  @Field(() => DateTimeResolver, { description: 'When the webhook was created (UTC)' })
  createdAt: Date;

  @Field(() => DateTimeResolver, { description: 'When it last changed, a secret rotation included (UTC)' })
  updatedAt: Date;
}

export const WebhookDeliveryStatus = serviceEnum<DeliveryStatus>(
  'WebhookDeliveryStatus',
  'Where a delivery stands. REST spells the values in lower case (`succeeded`).',
  {
    pending: 'Not sent yet, or waiting for its next attempt (nextAttemptAt)',
    succeeded: 'The receiver answered 2xx',
    failed:
      'Given up: retries ran out (about a day by default), the answer was final (a redirect, or a 4xx other than 408 and 429), or the webhook ended while it was pending',
  },
);
export type WebhookDeliveryStatus = DeliveryStatus;

@ObjectType('WebhookDeliveryAttempt', { description: 'One POST of a delivery to the webhook’s URL' })
export class WebhookDeliveryAttemptType {
  @Field(() => DateTimeResolver, { description: 'When the POST started (UTC)' })
  attemptedAt: Date;

  @Field(() => Int, { nullable: true, description: 'The receiver’s HTTP status; null when no answer came (time-out, connection failure)' })
  statusCode: number | null;

  @Field(() => NonNegativeIntResolver, { description: 'Milliseconds from the start of the POST to its answer or failure' })
  durationMs: number;

  @Field(() => String, {
    nullable: true,
    description: 'Why the attempt did not succeed (`the receiver answered 503`, `no answer within 15000 ms`…); null on success',
  })
  error: string | null;
}

/** An entry of a webhook's delivery log (REST GET /webhooks/{id}/deliveries). */
@ObjectType('WebhookDelivery', { implements: Node, description: 'One event sent (or to be sent) to a webhook, with every attempt' })
export class WebhookDeliveryType extends Node {
  @Field(() => String, { description: 'The delivery id (`id` in REST): the `webhook-id` header of every attempt' })
  restId: string;

  @Field(() => WebhookDeliveryStatus, { description: 'Pending, succeeded or failed' })
  status: WebhookDeliveryStatus;

  @Field(() => WebhookEventEnum, { description: 'The event type of the change(s) delivered, or USAGE_THRESHOLD for a usage alert' })
  eventType: WebhookEvent;

  @Field(() => PositiveIntResolver, { description: 'Upstream changes in this delivery (more than 1 when coalesced)' })
  changeCount: number;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When the next attempt is due (UTC); null unless pending' })
  nextAttemptAt: Date | null;

  @Field(() => DateTimeResolver, { description: 'When the delivery was queued (UTC)' })
  createdAt: Date;

  @Field(() => DateTimeResolver, { description: 'When its state last changed (UTC): an attempt, a coalesced update, a retry' })
  updatedAt: Date;

  @Field(() => JSONObjectResolver, {
    description: 'The signed JSON body POSTed to the URL (REST schema WebhookEvent; its values in REST spelling)',
  })
  payload: Record<string, unknown>;

  @Field(() => [WebhookDeliveryAttemptType], { description: 'Every attempt so far, oldest first' })
  attempts: WebhookDeliveryAttemptType[];
}

export const toWebhookType = (webhook: Webhook): WebhookType =>
  Object.assign(new WebhookType(), {
    id: toGlobalId('Webhook', webhook.id),
    restId: webhook.id,
    baseId: webhook.baseId,
    event: webhook.event as WebhookEvent,
    tableId: webhook.tableId,
    columnId: webhook.columnId,
    webhookUrl: webhook.webhookUrl,
    coalesceUpdates: webhook.coalesceUpdates,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  });

export const toWebhookDeliveryType = (webhookId: string, delivery: DeliveryView): WebhookDeliveryType =>
  Object.assign(new WebhookDeliveryType(), {
    id: toGlobalId('WebhookDelivery', webhookId, delivery.id),
    restId: delivery.id,
    status: delivery.status as WebhookDeliveryStatus,
    eventType: delivery.eventType as WebhookEvent,
    changeCount: delivery.changeCount,
    nextAttemptAt: delivery.nextAttemptAt,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
    payload: delivery.payload as unknown as Record<string, unknown>,
    attempts: delivery.attempts.map((attempt) => Object.assign(new WebhookDeliveryAttemptType(), attempt)),
  });
