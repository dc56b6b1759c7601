import { DateTimeResolver, JSONObjectResolver, NonNegativeIntResolver, PositiveIntResolver } from 'graphql-scalars';
import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { Webhook } from '../../entities/index.js';
import type { ChangeEventType } from '../../services/audit/change-event.js';
import type { DeliveryView } from '../../services/webhooks/delivery-log.service.js';
import { toGlobalId } from '../relay/global-id.js';
import { ChangeEventTypeEnum } from './change-enums.js';
import { Node } from './node.type.js';

/** A forwarding webhook: the nine REST fields (`webhookId` is `restId`); its deliveries are resolved by WebhookResolver. */
@ObjectType('Webhook', { implements: Node, description: 'Forwards a base’s changes of one event type to a URL, signed' })
export class WebhookType extends Node {
  @Field(() => String, { description: 'The id of REST paths /webhooks/{webhookId} (`webhookId` in REST, a UUID)' })
  restId: string;

  @Field(() => String, { description: 'The upstream base' })
  baseId: string;

  @Field(() => ChangeEventTypeEnum)
  event: ChangeEventType;

  @Field(() => String, { description: 'The table; "" for table events' })
  tableId: string;

  @Field(() => String, { nullable: true, description: 'The field (record_update, column_update, column_delete only)' })
  columnId: string | null;

  // A String, not the URL scalar: that one would answer a normalised spelling, not the URL as registered.
  @Field(() => String)
  webhookUrl: string;

  @Field(() => Boolean, { description: 'record_update events of one record merge while updates keep coming' })
  coalesceUpdates: boolean;

  @Field(() => DateTimeResolver)
  createdAt: Date;

  @Field(() => DateTimeResolver)
  updatedAt: Date;
}

export enum WebhookDeliveryStatus {
  pending = 'pending',
  succeeded = 'succeeded',
  failed = 'failed',
}
registerEnumType(WebhookDeliveryStatus, { name: 'WebhookDeliveryStatus' });

@ObjectType('WebhookDeliveryAttempt', { description: 'One POST of a delivery to the webhook’s URL' })
export class WebhookDeliveryAttemptType {
  @Field(() => DateTimeResolver)
  attemptedAt: Date;

  @Field(() => Int, { nullable: true, description: 'The receiver’s status; null when no answer came' })
  statusCode: number | null;

  @Field(() => NonNegativeIntResolver)
  durationMs: number;

  @Field(() => String, { nullable: true })
  error: string | null;
}

/** An entry of a webhook's delivery log (REST GET /webhooks/{id}/deliveries); not a Node: the log is read per webhook. */
@ObjectType('WebhookDelivery', { description: 'One event sent (or to be sent) to a webhook, with every attempt' })
export class WebhookDeliveryType {
  @Field(() => String, { description: 'The delivery id (`id` in REST): the `webhook-id` header of every attempt' })
  restId: string;

  @Field(() => WebhookDeliveryStatus)
  status: WebhookDeliveryStatus;

  @Field(() => ChangeEventTypeEnum)
  eventType: ChangeEventType;

  @Field(() => PositiveIntResolver, { description: 'Upstream changes in this delivery (more than 1 when coalesced)' })
  changeCount: number;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When the next attempt is due; null unless pending' })
  nextAttemptAt: Date | null;

  @Field(() => DateTimeResolver)
  createdAt: Date;

  @Field(() => DateTimeResolver)
  updatedAt: Date;

  @Field(() => JSONObjectResolver, { description: 'The signed JSON body POSTed to the URL (REST schema WebhookEvent)' })
  payload: Record<string, unknown>;

  @Field(() => [WebhookDeliveryAttemptType])
  attempts: WebhookDeliveryAttemptType[];
}

export const toWebhookType = (webhook: Webhook): WebhookType =>
  Object.assign(new WebhookType(), {
    id: toGlobalId('Webhook', webhook.id),
    restId: webhook.id,
    baseId: webhook.baseId,
    event: webhook.event as ChangeEventType,
    tableId: webhook.tableId,
    columnId: webhook.columnId,
    webhookUrl: webhook.webhookUrl,
    coalesceUpdates: webhook.coalesceUpdates,
    createdAt: webhook.createdAt,
    updatedAt: webhook.updatedAt,
  });

export const toWebhookDeliveryType = (delivery: DeliveryView): WebhookDeliveryType =>
  Object.assign(new WebhookDeliveryType(), {
    restId: delivery.id,
    status: delivery.status as WebhookDeliveryStatus,
    eventType: delivery.eventType as ChangeEventType,
    changeCount: delivery.changeCount,
    nextAttemptAt: delivery.nextAttemptAt,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
    payload: delivery.payload as unknown as Record<string, unknown>,
    attempts: delivery.attempts.map((attempt) => Object.assign(new WebhookDeliveryAttemptType(), attempt)),
  });
