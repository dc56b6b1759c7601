import { LocalDateResolver } from 'graphql-scalars';
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Float, ID, Query, Resolver, Root } from 'type-graphql';
import { z } from 'zod';
import { invalidRequest } from '../errors.js';
import { isValidDay } from '../services/calendar.js';
import { percentOf } from '../services/usage-insight/usage-alert.service.js';
import { ALERT_PAGE, AlertPageArgs, alertPage } from './alert-pages.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { accountListCursors, accountListSource } from './relay/account-lists.js';
import { ConnectionArgs } from './relay/connection.type.js';
import { connectionCost } from './relay/cost.js';
import { cursorCodec } from './relay/cursor.js';
import { requireOwned } from './require-owned.js';
import { requireSeen } from './upstream-access.resolver.js';
import { paginate } from './relay/paginate.js';
import { snapshotSource } from './snapshot-source.js';
import { SnapshotDayConnection, UsageBaseConnection } from './types/connections.js';
import { type ScheduledRunStatus, UsageScheduleType } from './types/schedule.type.js';
import { SnapshotDayType, toSnapshotDayType } from './types/snapshot.type.js';
import { toUsageBaseType, UsageBaseType } from './types/usage-base.type.js';
import { UsageLimitsType } from './types/usage-limits.type.js';
import { UsageAlertConnection } from './types/usage-alert.type.js';
import { UsageCountingType, UsageForecastType } from './types/usage-insight.type.js';

/** Default page sizes: REST's snapshot default (30 days), and 50 for lists. */
const SNAPSHOT_PAGE = 30;
const LIST_PAGE = 50;

@ArgsType()
class SnapshotConnectionArgs extends ConnectionArgs {
  @Field(() => LocalDateResolver, { nullable: true, description: 'Oldest day included (YYYY-MM-DD, in the base’s time zone)' })
  from?: string | null;

  @Field(() => LocalDateResolver, {
    nullable: true,
    description: 'Newest day included (YYYY-MM-DD, in the base’s time zone); not before `from`',
  })
  to?: string | null;
}

const Day = z.string().refine(isValidDay);

@Resolver(() => UsageBaseType)
export class UsageBaseResolver {
  @Query(() => UsageBaseConnection, { description: 'The caller’s tracked bases, oldest first', complexity: connectionCost(LIST_PAGE) })
  async usageBases(@Args(() => ConnectionArgs) args: ConnectionArgs, @Ctx() context: GraphqlContext): Promise<UsageBaseConnection> {
    const account = requireAccount(context);
    const bases = (await context.services.usageBases.list(account.id)).map(toUsageBaseType);
    for (const base of bases) context.loaders.usageBase.prime(base.restId, base.entity);
    return paginate(args, accountListSource(bases), accountListCursors(context.services.cursors, 'usage-bases', account.id), LIST_PAGE);
  }

  @Query(() => UsageBaseType, { nullable: true, description: 'A tracked base by global id or REST id; not_found when missing' })
  async usageBase(
    @Arg('id', () => ID, { description: 'Global id or REST id (a UUID) of the tracked base' }) id: string,
    @Ctx() context: GraphqlContext,
  ): Promise<UsageBaseType> {
    return toUsageBaseType(await requireUsageBase(context, id));
  }

  @FieldResolver(() => SnapshotDayType, { nullable: true, description: 'The newest counted day; null before the first count' })
  async latestSnapshot(@Root() base: UsageBaseType, @Ctx() context: GraphqlContext): Promise<SnapshotDayType | null> {
    await requireSeen(context, 'usageBase', base.entity, 'Usage base');
    const day = await context.loaders.latestSnapshot.load(base.restId);
    return day && toSnapshotDayType(base.restId, day);
  }

  @FieldResolver(() => SnapshotDayConnection, {
    description: 'Counted days, newest first (REST order); days without a count are absent',
    complexity: connectionCost(SNAPSHOT_PAGE),
  })
  async snapshots(
    @Root() base: UsageBaseType,
    @Args(() => SnapshotConnectionArgs) args: SnapshotConnectionArgs,
    @Ctx() context: GraphqlContext,
  ): Promise<SnapshotDayConnection> {
    const bounds = { from: args.from ?? undefined, to: args.to ?? undefined };
    if (bounds.from && bounds.to && bounds.from > bounds.to) throw invalidRequest('from must not be after to');
    await requireSeen(context, 'usageBase', base.entity, 'Usage base');
    const source = snapshotSource(context.services.snapshots, base.entity, bounds, context.loaders.counts);
    return paginate(args, source, cursorCodec(context.services.cursors, 'snapshot-days', base.restId, Day), SNAPSHOT_PAGE);
  }

  @FieldResolver(() => UsageLimitsType, {
    description: 'Record and storage limits and alert thresholds (REST GET /usage/bases/{id}/limits)',
  })
  async limits(@Root() base: UsageBaseType, @Ctx() context: GraphqlContext): Promise<UsageLimitsType> {
    return context.services.usageLimits.get(requireAccount(context).id, base.restId);
  }

  @FieldResolver(() => [UsageForecastType], {
    description: 'When each limit is reached at the recent pace: records, then storage (REST GET /usage/bases/{id}/forecast)',
  })
  async forecast(@Root() base: UsageBaseType, @Ctx() context: GraphqlContext): Promise<UsageForecastType[]> {
    return (await context.services.usageForecasts.get(requireAccount(context).id, base.restId)).forecasts;
  }

  @FieldResolver(() => UsageAlertConnection, {
    description: 'The base’s threshold alerts, newest first (REST GET /usage/alerts); pages forward',
    complexity: connectionCost(ALERT_PAGE),
  })
  async alerts(
    @Root() base: UsageBaseType,
    @Args(() => AlertPageArgs) args: AlertPageArgs,
    @Ctx() context: GraphqlContext,
  ): Promise<UsageAlertConnection> {
    await requireSeen(context, 'usageBase', base.entity, 'Usage base');
    return alertPage(context, args, { usageBaseId: base.restId });
  }

  @FieldResolver(() => UsageCountingType, {
    description: 'What the daily count costs upstream, and countOnlyWhenChanged (REST GET /usage/bases/{id}/counting)',
  })
  async counting(@Root() base: UsageBaseType, @Ctx() context: GraphqlContext): Promise<UsageCountingType> {
    return context.services.usageCounting.get(requireAccount(context).id, base.restId);
  }

  @FieldResolver(() => UsageScheduleType, { description: 'Next and last scheduled count' })
  async schedule(@Root() base: UsageBaseType, @Ctx() context: GraphqlContext): Promise<UsageScheduleType> {
    const { nextRunAt, lastRun } = await context.services.usageSchedule.schedule(requireAccount(context).id, base.restId);
    return {
      nextRunAt,
      lastRun: lastRun && { ...lastRun, status: lastRun.status as ScheduledRunStatus, error: lastRun.error ?? null },
    };
  }
}

/** The caller's usage base for an id argument (global or REST id); `not_found` otherwise. */
export const requireUsageBase = (context: GraphqlContext, id: string) =>
  requireOwned(context, id, 'UsageBase', 'Usage base', context.loaders.usageBase);

@Resolver(() => UsageForecastType)
export class UsageForecastResolver {
  @FieldResolver(() => Float, { nullable: true, description: 'current ÷ limit × 100, to one decimal; null without a limit or a count' })
  percentUsed(@Root() forecast: UsageForecastType): number | null {
    return forecast.limit === null || forecast.current === null ? null : percentOf(forecast.current, forecast.limit);
  }
}
