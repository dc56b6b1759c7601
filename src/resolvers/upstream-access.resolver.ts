import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { notFound } from '../errors.js';
import type { GraphqlContext } from './context.js';
import type { Loaders, WithBase } from './loaders.js';
import { serviceEnum } from './types/graphql-enum.js';
import { MonitoringConfigType } from './types/monitoring-config.type.js';
import { UsageBaseType } from './types/usage-base.type.js';
import { WebhookType } from './types/webhook.type.js';

type Access = 'visible' | 'lost';

export const UpstreamAccess = serviceEnum<Access>(
  'UpstreamAccess',
  'Whether the account’s upstream connection still sees the base of a tracked base, monitoring config or webhook (its list of bases, kept a minute)',
  {
    visible:
      'The connection sees the base (also when that cannot be told now: no connection, one needing re-authorisation, the upstream failing)',
    lost: 'The connection’s list of bases lacks it (it reconnected as another upstream user, or the base was unshared): everything else of the item is not_found, as another account’s would be; it can still be deleted',
  },
);

type LostKind = keyof Loaders['lost'];

const DESCRIPTION =
  'Whether the account’s connection still sees the upstream base; when LOST, every other field and operation of this item answers not_found (deleting it still works)';

async function accessOf(context: GraphqlContext, kind: LostKind, item: { restId: string; baseId: string }): Promise<Access> {
  return (await context.loaders.lost[kind].load({ id: item.restId, baseId: item.baseId })) ? 'lost' : 'visible';
}

/** For the fields of an item of a list that read its data: not_found, like the item's own endpoints, when it is lost. */
export async function requireSeen(context: GraphqlContext, kind: LostKind, item: WithBase, label: string): Promise<void> {
  if (await context.loaders.lost[kind].load(item)) throw notFound(label);
}

@Resolver(() => UsageBaseType)
export class UsageBaseAccessResolver {
  @FieldResolver(() => UpstreamAccess, { description: DESCRIPTION })
  upstreamAccess(@Root() base: UsageBaseType, @Ctx() context: GraphqlContext): Promise<Access> {
    return accessOf(context, 'usageBase', base);
  }
}

@Resolver(() => MonitoringConfigType)
export class MonitoringConfigAccessResolver {
  @FieldResolver(() => UpstreamAccess, { description: DESCRIPTION })
  upstreamAccess(@Root() config: MonitoringConfigType, @Ctx() context: GraphqlContext): Promise<Access> {
    return accessOf(context, 'monitoringConfig', config);
  }
}

@Resolver(() => WebhookType)
export class WebhookAccessResolver {
  @FieldResolver(() => UpstreamAccess, { description: DESCRIPTION })
  upstreamAccess(@Root() webhook: WebhookType, @Ctx() context: GraphqlContext): Promise<Access> {
    return accessOf(context, 'webhook', webhook);
  }
}

@Resolver(() => UsageBaseType)
export class UsageBaseWhenVisibleResolver {
  @FieldResolver(() => UsageBaseType, {
    nullable: true,
    description:
      'This same base while the account’s connection sees it; null when upstreamAccess is LOST. Ask for the base’s data under it in a list, so that a lost base leaves the rest of the list answering (its other fields would be not_found)',
  })
  async whenVisible(@Root() base: UsageBaseType, @Ctx() context: GraphqlContext): Promise<UsageBaseType | null> {
    return (await accessOf(context, 'usageBase', base)) === 'lost' ? null : base;
  }
}
