import { Args, ArgsType, Ctx, Field, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { invalidRequest, notFound } from '../errors.js';
import { ALERT_PAGE, AlertPageArgs, alertPage } from './alert-pages.js';
import type { GraphqlContext } from './context.js';
import { connectionCost } from './relay/cost.js';
import { restIdOf } from './relay/global-id.js';
import { UsageAlertConnection, UsageAlertType } from './types/usage-alert.type.js';
import { toUsageBaseType, UsageBaseType } from './types/usage-base.type.js';

/** Alerts page forward only, newest first, as REST. */
@ArgsType()
class UsageAlertArgs extends AlertPageArgs {
  @Field(() => ID, { nullable: true, description: 'Only alerts of this upstream base (upstream id or AirtableBase global id)' })
  baseId?: string | null;
}

@Resolver(() => UsageAlertType)
export class UsageAlertResolver {
  @FieldResolver(() => UsageBaseType, { description: 'The tracked base the alert is of' })
  async usageBase(@Root() alert: UsageAlertType, @Ctx() context: GraphqlContext): Promise<UsageBaseType> {
    const base = await context.loaders.usageBase.load(alert.usageBaseId);
    if (!base) throw notFound('Usage base');
    return toUsageBaseType(base);
  }

  @Query(() => UsageAlertConnection, {
    description: 'Threshold alerts of the caller’s tracked bases, newest first (REST GET /usage/alerts); pages forward',
    complexity: connectionCost(ALERT_PAGE),
  })
  async usageAlerts(@Args(() => UsageAlertArgs) args: UsageAlertArgs, @Ctx() context: GraphqlContext): Promise<UsageAlertConnection> {
    const baseId = args.baseId == null ? undefined : restIdOf(args.baseId, 'AirtableBase');
    if (args.baseId != null && !baseId) throw invalidRequest('baseId: not an upstream base id');
    return alertPage(context, args, { baseId });
  }
}
