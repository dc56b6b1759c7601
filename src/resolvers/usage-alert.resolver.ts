import { Args, ArgsType, Ctx, Field, Int, Query, Resolver } from 'type-graphql';
import { invalidRequest } from '../errors.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { connectionCost } from './relay/cost.js';
import { restIdOf } from './relay/global-id.js';
import { MAX_PAGE_SIZE } from './relay/paginate.js';
import { toUsageAlertType, UsageAlertConnection } from './types/usage-alert.type.js';

const ALERT_PAGE = 50;

/** Alerts page forward only, newest first, as REST. */
@ArgsType()
class UsageAlertArgs {
  @Field(() => Int, { nullable: true, description: `Items from the start of the window (0–${MAX_PAGE_SIZE}); default 50` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Only items after this cursor' })
  after?: string | null;

  @Field(() => String, { nullable: true, description: 'Only alerts of this upstream base (upstream id or AirtableBase global id)' })
  baseId?: string | null;
}

@Resolver()
export class UsageAlertResolver {
  @Query(() => UsageAlertConnection, {
    description: 'Threshold alerts of the caller’s tracked bases, newest first (REST GET /usage/alerts); pages forward',
    complexity: connectionCost(ALERT_PAGE),
  })
  async usageAlerts(@Args(() => UsageAlertArgs) args: UsageAlertArgs, @Ctx() context: GraphqlContext): Promise<UsageAlertConnection> {
    const account = requireAccount(context);
    const first = args.first ?? ALERT_PAGE;
    if (first < 0 || first > MAX_PAGE_SIZE) throw invalidRequest(`first must be between 0 and ${MAX_PAGE_SIZE}`);
    const baseId = args.baseId == null ? undefined : restIdOf(args.baseId, 'AirtableBase');
    if (args.baseId != null && !baseId) throw invalidRequest('baseId: not an upstream base id');
    const alerts = context.services.usageAlerts;
    const page = await alerts.list(account.id, { baseId, limit: Math.max(first, 1), cursor: args.after ?? undefined });
    const shown = page.alerts.slice(0, first);
    const edges = shown.map((alert) => ({ cursor: alerts.cursorAfter(account.id, alert), node: toUsageAlertType(alert) }));
    return {
      edges,
      nodes: edges.map((edge) => edge.node),
      pageInfo: {
        hasNextPage: first === 0 ? page.alerts.length > 0 : page.nextCursor !== undefined,
        hasPreviousPage: args.after != null,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
      get totalCount() {
        return alerts.countOf(account.id, baseId);
      },
    } as UsageAlertConnection;
  }
}
