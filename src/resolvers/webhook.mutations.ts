import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { webhookInput } from '../services/webhooks/webhook.input.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { restIdToDelete } from './require-owned.js';
import { accountListEdge } from './relay/account-lists.js';
import { fromGlobalId, toGlobalId } from './relay/global-id.js';
import { toWebhookDeliveryType, toWebhookType } from './types/webhook.type.js';
import { parseInput } from './validate-input.js';
import {
  CreateWebhookInput,
  CreateWebhookPayload,
  DeleteWebhookInput,
  DeleteWebhookPayload,
  RetryWebhookDeliveryInput,
  RetryWebhookDeliveryPayload,
  RotateWebhookSecretInput,
  RotateWebhookSecretPayload,
} from './webhook.inputs.js';
import { requireWebhook } from './webhook.resolver.js';

/** The REST writes of webhooks, with the same validation and error codes. */
@Resolver()
export class WebhookMutations {
  @Mutation(() => CreateWebhookPayload, { description: 'Forward a base’s changes to a URL (REST POST /webhooks)' })
  async createWebhook(
    @Arg('input', () => CreateWebhookInput, { description: 'What to forward, and where' }) input: CreateWebhookInput,
    @Ctx() context: GraphqlContext,
  ): Promise<CreateWebhookPayload> {
    const account = requireAccount(context);
    const { baseId, event, tableId, columnId, webhookUrl, coalesceUpdates } = input;
    const body = parseInput(webhookInput.create, { baseId, event, tableId, columnId, webhookUrl, coalesceUpdates });
    const { webhook, secret } = await context.services.webhooks.create(account.id, body);
    const node = toWebhookType(webhook);
    return {
      clientMutationId: input.clientMutationId ?? null,
      webhook: node,
      webhookEdge: accountListEdge(context.services.cursors, 'webhooks', account.id, node),
      secret,
    };
  }

  @Mutation(() => DeleteWebhookPayload, { description: 'Stop a webhook; its delivery log stays (REST DELETE /webhooks/{webhookId})' })
  async deleteWebhook(
    @Arg('input', () => DeleteWebhookInput, { description: 'The webhook to deactivate' }) input: DeleteWebhookInput,
    @Ctx() context: GraphqlContext,
  ): Promise<DeleteWebhookPayload> {
    const account = requireAccount(context);
    const id = restIdToDelete(input.id, 'Webhook', 'Webhook');
    await context.services.webhooks.remove(account.id, id);
    context.loaders.webhook.clear(id);
    const deletedId = toGlobalId('Webhook', id);
    return { clientMutationId: input.clientMutationId ?? null, deletedId, deletedWebhookId: deletedId };
  }

  @Mutation(() => RotateWebhookSecretPayload, { description: 'Replace the signing secret (REST POST /webhooks/{webhookId}/rotate-secret)' })
  async rotateWebhookSecret(
    @Arg('input', () => RotateWebhookSecretInput, { description: 'The webhook whose secret to replace' }) input: RotateWebhookSecretInput,
    @Ctx() context: GraphqlContext,
  ): Promise<RotateWebhookSecretPayload> {
    const account = requireAccount(context);
    const { id } = await requireWebhook(context, input.id);
    const secret = await context.services.webhooks.rotateSecret(account.id, id);
    context.loaders.webhook.clear(id); // Its updatedAt moved.
    const webhook = await requireWebhook(context, id);
    return { clientMutationId: input.clientMutationId ?? null, webhook: toWebhookType(webhook), secret };
  }

  @Mutation(() => RetryWebhookDeliveryPayload, {
    description: 'Send a delivery again now, with a fresh retry schedule (REST POST /webhooks/{webhookId}/deliveries/{deliveryId}/retry)',
  })
  async retryWebhookDelivery(
    @Arg('input', () => RetryWebhookDeliveryInput, { description: 'The webhook and its delivery' }) input: RetryWebhookDeliveryInput,
    @Ctx() context: GraphqlContext,
  ): Promise<RetryWebhookDeliveryPayload> {
    const account = requireAccount(context);
    const webhook = await requireWebhook(context, input.webhookId);
    const delivery = await context.services.webhookDeliveries.retry(account.id, webhook.id, deliveryRestId(input.deliveryId, webhook.id));
    return {
      clientMutationId: input.clientMutationId ?? null,
      delivery: toWebhookDeliveryType(webhook.id, delivery),
      webhook: toWebhookType(webhook),
    };
  }
}

/** The REST id behind a delivery's global id (of this webhook's log) or its REST id; "" (not found) for any other global id. */
function deliveryRestId(id: string, webhookId: string): string {
  const decoded = fromGlobalId(id);
  if (!decoded) return id;
  const [ofWebhook, deliveryId] = decoded.parts;
  return decoded.type === 'WebhookDelivery' && ofWebhook === webhookId && deliveryId ? deliveryId : '';
}
