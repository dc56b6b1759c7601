import { Arg, Ctx, FieldResolver, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import { notFound } from '../errors.js';
import type { SnapshotDay } from '../services/snapshot.service.js';
import type { GraphqlContext } from './context.js';
import { SNAPSHOT_RECORDED } from './support/event-hub.js';
import { SnapshotDayType, toSnapshotDayType } from './types/snapshot.type.js';
import { toUsageBaseType, UsageBaseType } from './types/usage-base.type.js';
import { requireUsageBase } from './usage-base.resolver.js';

interface SnapshotRecorded {
  usageBaseId: string;
  day: SnapshotDay;
}

@Resolver(() => SnapshotDayType)
export class SnapshotDayResolver {
  @FieldResolver(() => UsageBaseType, { description: 'The tracked base this day was counted for' })
  async usageBase(@Root() day: SnapshotDayType, @Ctx() context: GraphqlContext): Promise<UsageBaseType> {
    const base = await context.loaders.usageBase.load(day.usageBaseId);
    if (!base) throw notFound('Usage base');
    return toUsageBaseType(base);
  }

  @Subscription(() => SnapshotDayType, {
    description: 'Each day recorded for this usage base (global id or REST id), by a count run now or on schedule',
    subscribe: async ({ args, context }: SubscribeResolverData<unknown, { usageBaseId: string }, GraphqlContext>) => {
      const base = await requireUsageBase(context, args.usageBaseId);
      return context.events.subscribe<SnapshotRecorded>(SNAPSHOT_RECORDED, base.id);
    },
  })
  snapshotRecorded(
    @Root() event: SnapshotRecorded,
    @Arg('usageBaseId', () => ID, { description: 'Global id or REST id of the usage base' }) _usageBaseId: string,
  ): SnapshotDayType {
    return toSnapshotDayType(event.usageBaseId, event.day);
  }
}
