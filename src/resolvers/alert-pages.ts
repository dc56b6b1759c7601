import { ArgsType, Field, Int } from 'type-graphql';
import { invalidRequest } from '../errors.js';
import type { AlertFilter } from '../services/usage-insight/usage-alert.service.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { MAX_PAGE_SIZE } from './relay/paginate.js';
import { toUsageAlertType, type UsageAlertConnection } from './types/usage-alert.type.js';

/** REST's default page of alerts. */
export const ALERT_PAGE = 50;

/** A forward page of the account's alerts, newest first, Relay style: each edge's cursor is the service's own. */
export async function alertPage(
  context: GraphqlContext,
  args: { first?: number | null; after?: string | null },
  filter: AlertFilter,
): Promise<UsageAlertConnection> {
  const account = requireAccount(context);
  const first = args.first ?? ALERT_PAGE;
  if (first < 0 || first > MAX_PAGE_SIZE) throw invalidRequest(`first must be between 0 and ${MAX_PAGE_SIZE}`);
  const alerts = context.services.usageAlerts;
  const page = await alerts.list(account.id, { ...filter, limit: Math.max(first, 1), cursor: args.after ?? undefined });
  const edges = page.alerts
    .slice(0, first)
    .map((alert) => ({ cursor: alerts.cursorAfter(account.id, alert), node: toUsageAlertType(alert) }));
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
      return alerts.countOf(account.id, filter);
    },
  } as UsageAlertConnection;
}

/** Alerts page forward only, newest first, as REST. */
@ArgsType()
export class AlertPageArgs {
  @Field(() => Int, { nullable: true, description: `Items from the start of the window (0–${MAX_PAGE_SIZE}); default 50` })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Only items after this cursor' })
  after?: string | null;
}
