import { Field, ID, InputType, ObjectType } from 'type-graphql';
import type { WebhookEvent } from '../services/webhooks/webhook-rules.js';
import { WebhookEventEnum } from './types/change-enums.js';
import { WebhookEdge } from './types/connections.js';
import { WebhookDeliveryType, WebhookType } from './types/webhook.type.js';

// Relay mutations: one `input` argument, a payload echoing clientMutationId. Values are checked by the REST schemas.

@InputType('CreateWebhookInput', {
  description: 'A webhook to create (REST POST /webhooks body); base, table and field must exist upstream',
})
export class CreateWebhookInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'The upstream base (app…) whose changes to forward' })
  baseId: string;

  @Field(() => WebhookEventEnum, { description: 'The one event type to forward' })
  event: WebhookEvent;

  @Field(() => String, {
    nullable: true,
    description: 'The table (tbl…): required for RECORD_* and COLUMN_* events; "" or left out for TABLE_* (every table)',
  })
  tableId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Only this field (fld…); allowed for RECORD_UPDATE (fires when its value changed), COLUMN_UPDATE and COLUMN_DELETE only',
  })
  columnId?: string | null;

  @Field(() => String, {
    description: 'Where to POST deliveries: https (plain http and private addresses only for WEBHOOK_ALLOWED_HOSTS); stored in normal form',
  })
  webhookUrl: string;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Merge a record’s RECORD_UPDATE changes into one delivery while they keep coming (RECORD_UPDATE only); default false',
  })
  coalesceUpdates?: boolean | null;
}

@InputType('DeleteWebhookInput', { description: 'The webhook to deactivate' })
export class DeleteWebhookInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id (webhookId) of the webhook' })
  id: string;
}

@InputType('RotateWebhookSecretInput', { description: 'The webhook whose signing secret to replace' })
export class RotateWebhookSecretInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id (webhookId) of the webhook' })
  id: string;
}

@InputType('RetryWebhookDeliveryInput', { description: 'A delivery to send again now, whatever its status (active webhooks only)' })
export class RetryWebhookDeliveryInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id (webhookId) of the webhook' })
  webhookId: string;

  @Field(() => ID, { description: 'Global id or restId (`id` in REST, a UUID) of the delivery' })
  deliveryId: string;
}

@ObjectType('CreateWebhookPayload', { description: 'What createWebhook made, with its signing secret' })
export class CreateWebhookPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => WebhookType, { description: 'The new webhook' })
  webhook: WebhookType;

  @Field(() => WebhookEdge, { description: 'The new webhook as an edge of `webhooks`, for Relay’s @appendEdge' })
  webhookEdge: WebhookEdge;

  @Field(() => String, { description: 'The signing secret (whsec_…): shown only here' })
  secret: string;
}

@ObjectType('DeleteWebhookPayload', { description: 'What deleteWebhook deactivated (its pending deliveries fail; its delivery log stays)' })
export class DeleteWebhookPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => ID, {
    description: 'Global id of the deactivated webhook',
    deprecationReason: 'Use deletedId, which every delete payload has',
  })
  deletedWebhookId: string;

  @Field(() => ID, { description: 'Global id of the deactivated webhook, for Relay’s @deleteRecord' })
  deletedId: string;
}

@ObjectType('RotateWebhookSecretPayload', { description: 'The webhook’s new signing secret' })
export class RotateWebhookSecretPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => WebhookType, { description: 'The webhook, its updatedAt moved' })
  webhook: WebhookType;

  @Field(() => String, { description: 'The new signing secret: shown only here; the previous one co-signs for 24 hours' })
  secret: string;
}

@ObjectType('RetryWebhookDeliveryPayload', { description: 'The delivery queued again by retryWebhookDelivery' })
export class RetryWebhookDeliveryPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => WebhookDeliveryType, { description: 'The delivery, queued again' })
  delivery: WebhookDeliveryType;

  @Field(() => WebhookType, { description: 'The webhook of the delivery' })
  webhook: WebhookType;
}
