import { Arg, Field, ID, ObjectType, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { DeliveryAttempted } from '../services/webhooks/attempt-recorder.js';
import type { GraphqlContext } from './context.js';
import { DELIVERY_ATTEMPTED } from './support/event-hub.js';
import { requireWebhook } from './webhook.resolver.js';

@ObjectType('DeliveryAttempted', { description: 'A delivery attempt of a webhook was stored: its delivery log changed' })
export class DeliveryAttemptedType {
  @Field(() => ID, { description: 'The webhook’s REST id (`webhookId`)' })
  webhookId: string;

  @Field(() => ID, { description: 'The delivery’s REST id (`restId` of WebhookDelivery)' })
  deliveryId: string;
}

@Resolver(() => DeliveryAttemptedType)
export class DeliverySubscriptionResolver {
  @Subscription(() => DeliveryAttemptedType, {
    description: 'Each delivery attempt of this webhook (global id or REST id) once stored, so an open delivery log stays current',
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { webhookId: string }, GraphqlContext>) => {
      const webhook = await requireWebhook(context, args.webhookId);
      return context.events.subscribe<DeliveryAttempted>(DELIVERY_ATTEMPTED, webhook.id);
    },
  })
  deliveryAttempted(
    @Root() event: DeliveryAttempted,
    @Arg('webhookId', () => ID, { description: 'Global id or REST id of the webhook' }) _webhookId: string,
  ): DeliveryAttemptedType {
    return { webhookId: event.webhookId, deliveryId: event.deliveryId };
  }
}
