import { Args, ArgsType, Ctx, Field, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { invalidRequest } from '../errors.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { deliveryPage } from './delivery-pages.js';
import { accountListCursors, accountListSource } from './relay/account-lists.js';
import { ConnectionArgs } from './relay/connection.type.js';
import { connectionCost } from './relay/cost.js';
import { restIdOf } from './relay/global-id.js';
import { requireOwned } from './require-owned.js';
import { MAX_PAGE_SIZE, paginate } from './relay/paginate.js';
import { WebhookConnection, WebhookDeliveryConnection } from './types/connections.js';
import { toWebhookType, WebhookDeliveryStatus, WebhookType } from './types/webhook.type.js';

/** Default page sizes: 50 for lists, and REST's 50 deliveries. */
const LIST_PAGE = 50;
const DELIVERY_PAGE = 50;

@ArgsType()
class WebhookListArgs extends ConnectionArgs {
  @Field(() => ID, { nullable: true, description: 'Only webhooks of this upstream base (upstream id or AirtableBase global id)' })
  baseId?: string | null;
}

/** The delivery log pages forward only (the Relay spec makes last/before optional). */
@ArgsType()
class DeliveryConnectionArgs {
  @Field(() => Int, { nullable: true, description: `Items from the start of the window (0–${MAX_PAGE_SIZE}); default 50` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Only items after this cursor' })
  after?: string | null;

  @Field(() => WebhookDeliveryStatus, { nullable: true, description: 'Only deliveries in this status; null: all' })
  status?: WebhookDeliveryStatus | null;
}

@Resolver(() => WebhookType)
export class WebhookResolver {
  @Query(() => WebhookConnection, { description: 'The caller’s active webhooks, oldest first', complexity: connectionCost(LIST_PAGE) })
  async webhooks(@Args(() => WebhookListArgs) args: WebhookListArgs, @Ctx() context: GraphqlContext): Promise<WebhookConnection> {
    const account = requireAccount(context);
    const baseId = args.baseId == null ? undefined : restIdOf(args.baseId, 'AirtableBase');
    if (args.baseId != null && !baseId) throw invalidRequest('baseId: not an upstream base id');
    const webhooks = await context.services.webhooks.list(account.id, baseId);
    for (const webhook of webhooks) context.loaders.webhook.prime(webhook.id, webhook);
    return paginate(
      args,
      accountListSource(webhooks.map(toWebhookType)),
      accountListCursors(context.services.cursors, 'webhooks', account.id),
      LIST_PAGE,
    );
  }

  @FieldResolver(() => WebhookDeliveryConnection, {
    description: 'The delivery log, newest first (REST GET /webhooks/{id}/deliveries); pages forward',
    complexity: connectionCost(DELIVERY_PAGE),
  })
  async deliveries(
    @Root() webhook: WebhookType,
    @Args(() => DeliveryConnectionArgs) args: DeliveryConnectionArgs,
    @Ctx() context: GraphqlContext,
  ): Promise<WebhookDeliveryConnection> {
    return deliveryPage(context, webhook.restId, args, DELIVERY_PAGE);
  }
}

/** The caller's active webhook for an id argument (global or REST id); `not_found` otherwise. */
export const requireWebhook = (context: GraphqlContext, id: string) =>
  requireOwned(context, id, 'Webhook', 'Webhook', context.loaders.webhook);
