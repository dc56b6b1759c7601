import { Arg, Ctx, FieldResolver, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { notFound } from '../errors.js';
import type { ChangeRecord } from '../services/audit/change-row.js';
import type { GraphqlContext } from './context.js';
import { requireMonitoringConfig } from './monitoring-config.resolver.js';
import { CHANGE_LOGGED } from './support/event-hub.js';
import { ChangeType, toChangeType } from './types/change.type.js';
import { MonitoringConfigType, toMonitoringConfigType } from './types/monitoring-config.type.js';

/** What the gateway publishes for each logged change. */
export interface ChangeLogged {
  configId: string;
  change: ChangeRecord;
}

@Resolver(() => ChangeType)
export class ChangeResolver {
  @FieldResolver(() => MonitoringConfigType, { description: 'The config that logged this change' })
  async monitoringConfig(@Root() change: ChangeType, @Ctx() context: GraphqlContext): Promise<MonitoringConfigType> {
    const config = await context.loaders.monitoringConfig.load(change.configId);
    if (!config) throw notFound('Monitoring config');
    return toMonitoringConfigType(config);
  }

  @Subscription(() => ChangeType, {
    description: 'Each change logged for this monitoring config (global id or REST id), as ingestion commits it',
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { monitoringConfigId: string }, GraphqlContext>) => {
      const config = await requireMonitoringConfig(context, args.monitoringConfigId);
      return context.events.subscribe<ChangeLogged>(CHANGE_LOGGED, config.id);
    },
  })
  changeLogged(
    @Root() event: ChangeLogged,
    @Arg('monitoringConfigId', () => ID, { description: 'Global id or REST id of the monitoring config' }) _monitoringConfigId: string,
  ): ChangeType {
    return toChangeType(event.configId, event.change);
  }
}
