import DataLoader from 'dataloader';
import type { MonitoringConfig, UsageBase, Webhook } from '../entities/index.js';
import { isAppError } from '../errors.js';
import type { AccountSummary } from '../services/account.service.js';
import type { ChangeFilterQuery, ChangeWindow } from '../services/audit/change-query.service.js';
import type { ChangeRecord } from '../services/audit/change-row.js';
import type { SnapshotDay } from '../services/snapshot.service.js';
import type { Services } from '../services.js';
import type { UpstreamBase, UpstreamTable } from '../upstream/types.js';
import { createCountLoaders, type CountLoaders } from './count-loaders.js';

/** Batching and caching of one operation's reads, so a list of N items costs a fixed number of queries. */
export interface Loaders {
  /** The caller's usage base by REST id; null when missing or another account's. */
  usageBase: DataLoader<string, UsageBase | null>;
  /** The newest counted day of a usage base (already access-checked) by REST id. */
  latestSnapshot: DataLoader<string, SnapshotDay | null>;
  /** The tables of an upstream base; null when the upstream does not know the base. */
  airtableTables: DataLoader<string, UpstreamTable[] | null>;
  airtableBases(): Promise<UpstreamBase[]>;
  /** The caller's monitoring config by REST id; null when missing or another account's. */
  monitoringConfig: DataLoader<string, MonitoringConfig | null>;
  /** The caller's active webhook by REST id; null when missing, deleted or another account's. */
  webhook: DataLoader<string, Webhook | null>;
  /** The first page of changes of configs (already access-checked): one statement for every config of a list. */
  changeWindow: DataLoader<ChangeWindowKey, ChangeRecord[], string>;
  /** A change of a config (already access-checked) by its REST id. */
  change: DataLoader<{ configId: string; id: string }, ChangeRecord | null, string>;
  /** totalCount of nested connections, one statement per set of arguments. */
  counts: CountLoaders;
  /**
   * Whether the caller's connection no longer sees the upstream base of a usage base, config or webhook (by REST id):
   * one look at the connection's list of bases for every item of a list.
   */
  lost: Record<'usageBase' | 'monitoringConfig' | 'webhook', DataLoader<WithBase, boolean, string>>;
}

/** A usage base, config or webhook as the visibility check needs it. */
export interface WithBase {
  id: string;
  baseId: string;
}

/** A page of one config's changes without positions: the same filter and size for every config of a list. */
export interface ChangeWindowKey extends Pick<ChangeWindow, 'limit' | 'end'> {
  configId: string;
  /** The config's changes version, which the page is cached under. */
  changesVersion?: number;
  filter: ChangeFilterQuery;
}

export function createLoaders(services: Services, account: AccountSummary | undefined): Loaders {
  const { usageBases, snapshots, monitoringConfigs, webhooks, changeQueries } = services;
  let bases: Promise<UpstreamBase[]> | undefined;
  return {
    usageBase: new DataLoader(async (ids) => {
      if (!account) return ids.map(() => null);
      if (ids.length === 1) return [await orNull(usageBases.get(account.id, ids[0]))];
      // Several at once (nodes(ids)): the account's list in one query beats one query per id.
      return visibleByIds(ids, await usageBases.list(account.id), (rows) => usageBases.lostAmong(account.id, rows));
    }),
    latestSnapshot: new DataLoader(async (ids) => {
      const latest = await snapshots.latestOf([...ids]);
      return ids.map((id) => latest.get(id) ?? null);
    }),
    airtableTables: new DataLoader(async (baseIds) =>
      Promise.all(baseIds.map((id) => (account ? orNull(services.airtableLookup.listTables(account.id, id)) : null))),
    ),
    airtableBases: () => (bases ??= account ? services.airtableLookup.listBases(account.id) : Promise.resolve([])),
    monitoringConfig: new DataLoader(async (ids) => {
      if (!account) return ids.map(() => null);
      if (ids.length === 1) return [await orNull(monitoringConfigs.get(account.id, ids[0]))];
      return visibleByIds(ids, await monitoringConfigs.list(account.id), (rows) => monitoringConfigs.lostAmong(account.id, rows));
    }),
    webhook: new DataLoader(async (ids) => {
      if (!account) return ids.map(() => null);
      if (ids.length === 1) return [await orNull(webhooks.getActive(account.id, ids[0]))];
      return visibleByIds(ids, await webhooks.list(account.id), (rows) => webhooks.lostAmong(account.id, rows));
    }),
    changeWindow: new DataLoader(
      async (keys) => {
        // Configs asked for with the same filter and size share one statement.
        const groups = new Map<string, ChangeWindowKey[]>();
        for (const key of keys) groups.set(windowGroup(key), [...(groups.get(windowGroup(key)) ?? []), key]);
        const pages = new Map<string, ChangeRecord[]>();
        await Promise.all(
          [...groups.entries()].map(async ([group, members]) => {
            const { filter, limit, end } = members[0];
            const configs = [
              ...new Map(members.map((key) => [key.configId, { id: key.configId, changesVersion: key.changesVersion }])).values(),
            ];
            const byConfig = await changeQueries.windows(configs, filter, { limit, end });
            for (const [configId, records] of byConfig) pages.set(`${configId}:${group}`, records);
          }),
        );
        return keys.map((key) => pages.get(`${key.configId}:${windowGroup(key)}`) ?? []);
      },
      { cacheKeyFn: (key) => `${key.configId}:${windowGroup(key)}` },
    ),
    change: new DataLoader(
      async (keys) => {
        const byConfig = new Map<string, string[]>();
        for (const { configId, id } of keys) byConfig.set(configId, [...(byConfig.get(configId) ?? []), id]);
        const found = new Map<string, ChangeRecord>();
        await Promise.all(
          [...byConfig.entries()].map(async ([configId, ids]) => {
            for (const record of await changeQueries.byIds({ id: configId }, ids)) found.set(`${configId}:${record.id}`, record);
          }),
        );
        return keys.map(({ configId, id }) => found.get(`${configId}:${id}`) ?? null);
      },
      { cacheKeyFn: ({ configId, id }) => `${configId}:${id}` },
    ),
    counts: createCountLoaders(services),
    lost: {
      usageBase: lostLoader(account, (accountId, rows) => usageBases.lostAmong(accountId, rows)),
      monitoringConfig: lostLoader(account, (accountId, rows) => monitoringConfigs.lostAmong(accountId, rows)),
      webhook: lostLoader(account, (accountId, rows) => webhooks.lostAmong(accountId, rows)),
    },
  };
}

type LostAmong = (accountId: string, rows: WithBase[]) => Promise<Set<string>>;

function lostLoader(account: AccountSummary | undefined, lostAmong: LostAmong): DataLoader<WithBase, boolean, string> {
  return new DataLoader<WithBase, boolean, string>(
    async (rows) => {
      const lost = account ? await lostAmong(account.id, [...rows]) : new Set<string>();
      return rows.map((row) => lost.has(row.id));
    },
    { cacheKeyFn: (row) => row.id },
  );
}

/** The rows asked for, null for those missing or whose base the connection no longer sees (like get's not_found). */
async function visibleByIds<T extends WithBase>(ids: readonly string[], rows: T[], lostAmong: (rows: T[]) => Promise<Set<string>>) {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const lost = await lostAmong(ids.flatMap((id) => byId.get(id) ?? []));
  return ids.map((id) => (lost.has(id) ? null : (byId.get(id) ?? null)));
}

const windowGroup = ({ filter, limit, end }: ChangeWindowKey) => JSON.stringify([filter, limit, end]);

/** A look-up's result, or null for `not_found`; every other failure stays a failure. */
export async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return null;
    throw error;
  }
}
