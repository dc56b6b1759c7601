import DataLoader from 'dataloader';
import type { WebhookDeliveryStatus } from '../entities/index.js';
import type { ChangeFilterQuery } from '../services/audit/change-query.service.js';
import type { Services } from '../services.js';

/**
 * The `totalCount` of connections nested in a list (each base's snapshots, each config's changes, each webhook's
 * deliveries): connections asked for with the same arguments share one count statement. Owners are access-checked
 * by the resolver that reached them.
 */
export interface CountLoaders {
  snapshotDays: DataLoader<{ usageBaseId: string; from?: string; to?: string }, number, string>;
  changes: DataLoader<{ configId: string; filter: ChangeFilterQuery }, number, string>;
  deliveries: DataLoader<{ webhookId: string; status?: WebhookDeliveryStatus }, number, string>;
}

export function createCountLoaders({ snapshots, changeQueries, webhookDeliveries }: Services): CountLoaders {
  return {
    snapshotDays: groupedCounts(
      ({ usageBaseId }) => usageBaseId,
      ({ from, to }) => ({ from, to }),
      (ids, bounds) => snapshots.countDays(ids, bounds),
    ),
    changes: groupedCounts(
      ({ configId }) => configId,
      ({ filter }) => filter,
      (ids, filter) => changeQueries.counts(ids, filter),
    ),
    deliveries: groupedCounts(
      ({ webhookId }) => webhookId,
      ({ status }) => status,
      (ids, status) => webhookDeliveries.countOf(ids, status),
    ),
  };
}

/** A count loader: keys with the same arguments form a group, and each group is one call of `count`. */
function groupedCounts<K, A>(
  ownerOf: (key: K) => string,
  argsOf: (key: K) => A,
  count: (ownerIds: string[], args: A) => Promise<Map<string, number>>,
): DataLoader<K, number, string> {
  const groupOf = (key: K) => JSON.stringify(argsOf(key) ?? null);
  return new DataLoader(
    async (keys) => {
      const groups = new Map<string, K[]>();
      for (const key of keys) groups.set(groupOf(key), [...(groups.get(groupOf(key)) ?? []), key]);
      const counted = new Map<string, number>();
      await Promise.all(
        [...groups].map(async ([group, members]) => {
          const byOwner = await count([...new Set(members.map(ownerOf))], argsOf(members[0]));
          for (const [owner, n] of byOwner) counted.set(`${owner}:${group}`, n);
        }),
      );
      return keys.map((key) => counted.get(`${ownerOf(key)}:${groupOf(key)}`) ?? 0);
    },
    { cacheKeyFn: (key) => `${ownerOf(key)}:${groupOf(key)}` },
  );
}
