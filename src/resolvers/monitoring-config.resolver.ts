import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, ID, Query, Resolver, Root } from 'type-graphql';
import { invalidRequest } from '../errors.js';
import { changeQueryInput } from '../services/audit/change-query.input.js';
import { ChangePosition } from '../services/audit/change-position.js';
import type { ChangeFilterQuery } from '../services/audit/change-query.service.js';
import { changeSource } from './change-source.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { accountListCursors, accountListSource } from './relay/account-lists.js';
import { ConnectionArgs } from './relay/connection.type.js';
import { connectionCost } from './relay/cost.js';
import { cursorCodec } from './relay/cursor.js';
import { requireOwned } from './require-owned.js';
import { requireSeen } from './upstream-access.resolver.js';
import { paginate } from './relay/paginate.js';
import { ChangeFilterInput } from './types/change.type.js';
import { ChangeConnection, MonitoringConfigConnection } from './types/connections.js';
import { MonitoringConfigType, toMonitoringConfigType } from './types/monitoring-config.type.js';
import { parseInput } from './validate-input.js';

/** Default page sizes: 50 for lists, and REST's 50 changes. */
const LIST_PAGE = 50;
const CHANGE_PAGE = 50;

@ArgsType()
class ChangeConnectionArgs extends ConnectionArgs {
  @Field(() => ChangeFilterInput, { nullable: true, description: 'The filters of REST GET …/changes (AND)' })
  filter?: ChangeFilterInput | null;
}

@Resolver(() => MonitoringConfigType)
export class MonitoringConfigResolver {
  @Query(() => MonitoringConfigConnection, {
    description: 'The caller’s monitoring configs, oldest first',
    complexity: connectionCost(LIST_PAGE),
  })
  async monitoringConfigs(
    @Args(() => ConnectionArgs) args: ConnectionArgs,
    @Ctx() context: GraphqlContext,
  ): Promise<MonitoringConfigConnection> {
    const account = requireAccount(context);
    const configs = await context.services.monitoringConfigs.list(account.id);
    for (const config of configs) context.loaders.monitoringConfig.prime(config.id, config);
    const source = accountListSource(configs.map(toMonitoringConfigType));
    return paginate(args, source, accountListCursors(context.services.cursors, 'monitoring-configs', account.id), LIST_PAGE);
  }

  @Query(() => MonitoringConfigType, { nullable: true, description: 'A monitoring config by global id or REST id; not_found when missing' })
  async monitoringConfig(
    @Arg('id', () => ID, { description: 'Global id or REST id (a UUID) of the monitoring config' }) id: string,
    @Ctx() context: GraphqlContext,
  ): Promise<MonitoringConfigType> {
    return toMonitoringConfigType(await requireMonitoringConfig(context, id));
  }

  @FieldResolver(() => ChangeConnection, {
    description: 'Logged changes, newest first by occurrence time, ties by id (REST order)',
    complexity: connectionCost(CHANGE_PAGE),
  })
  async changes(
    @Root() config: MonitoringConfigType,
    @Args(() => ChangeConnectionArgs) args: ChangeConnectionArgs,
    @Ctx() context: GraphqlContext,
  ): Promise<ChangeConnection> {
    const filter = changeFilterOf(args.filter);
    await requireSeen(context, 'monitoringConfig', { id: config.restId, baseId: config.baseId }, 'Monitoring config');
    return paginate(
      args,
      changeSource(context, config.restId, filter),
      cursorCodec(context.services.cursors, 'changes', config.restId, ChangePosition),
      CHANGE_PAGE,
    );
  }
}

/** The filter argument checked as REST checks its query, in a fixed key order (configs with equal filters batch). */
function changeFilterOf(input: ChangeFilterInput | null | undefined): ChangeFilterQuery {
  const { eventType, kind, tableId, recordId, source, userEmail, fieldId, from, to, timezone } = parseInput(
    changeQueryInput.filter,
    { ...input },
    'filter',
  );
  if (from && to && from > to) throw invalidRequest('filter: from must not be after to');
  const filter = { eventType, kind, tableId, recordId, source, userEmail, fieldId, from, to, timezone };
  return Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)) as ChangeFilterQuery;
}

/** The caller's monitoring config for an id argument (global or REST id); `not_found` otherwise. */
export const requireMonitoringConfig = (context: GraphqlContext, id: string) =>
  requireOwned(context, id, 'MonitoringConfig', 'Monitoring config', context.loaders.monitoringConfig);
