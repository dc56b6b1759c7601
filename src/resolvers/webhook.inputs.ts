import { Field, ID, InputType, ObjectType } from 'type-graphql';
import type { ChangeEventType } from '../services/audit/change-event.js';
import { ChangeEventTypeEnum } from './types/change-enums.js';
import { WebhookDeliveryType, WebhookType } from './types/webhook.type.js';

// Relay mutations: one `input` argument, a payload echoing clientMutationId. Values are checked by the REST schemas.

@InputType('CreateWebhookInput')
export class CreateWebhookInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => String, { description: 'The upstream base (app…)' })
  baseId: string;

  @Field(() => ChangeEventTypeEnum)
  event: ChangeEventType;

  @Field(() => String, { nullable: true, description: 'Required for record_* and column_* events; "" or absent for table_*' })
  tableId?: string | null;

  @Field(() => String, { nullable: true, description: 'Only for record_update, column_update and column_delete' })
  columnId?: string | null;

  @Field(() => String, { description: 'https (plain http only for allow-listed hosts); not a private address' })
  webhookUrl: string;

  @Field(() => Boolean, { nullable: true, description: 'Default false' })
  coalesceUpdates?: boolean | null;
}

@InputType('DeleteWebhookInput')
export class DeleteWebhookInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id (webhookId) of the webhook' })
  id: string;
}

@InputType('RotateWebhookSecretInput')
export class RotateWebhookSecretInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id (webhookId) of the webhook' })
  id: string;
}

@InputType('RetryWebhookDeliveryInput')
export class RetryWebhookDeliveryInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id (webhookId) of the webhook' })
  webhookId: string;

  @Field(() => ID, { description: 'The delivery’s restId' })
  deliveryId: string;
}

@ObjectType('CreateWebhookPayload')
export class CreateWebhookPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => WebhookType)
  webhook: WebhookType;

  @Field(() => String, { description: 'The signing secret (whsec_…): shown only here' })
  secret: string;
}

@ObjectType('DeleteWebhookPayload')
export class DeleteWebhookPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => ID, { description: 'Global id of the deactivated webhook' })
  deletedWebhookId: string;
}

@ObjectType('RotateWebhookSecretPayload')
export class RotateWebhookSecretPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => WebhookType)
  webhook: WebhookType;

  @Field(() => String, { description: 'The new signing secret: shown only here; the previous one co-signs for 24 hours' })
  secret: string;
}

@ObjectType('RetryWebhookDeliveryPayload')
export class RetryWebhookDeliveryPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => WebhookDeliveryType, { description: 'The delivery, queued again' })
  delivery: WebhookDeliveryType;

  @Field(() => WebhookType)
  webhook: WebhookType;
}
