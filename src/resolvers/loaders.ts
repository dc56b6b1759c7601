import DataLoader from 'dataloader';
import type { UsageBase } from '../entities/index.js';
import { isAppError } from '../errors.js';
import type { AccountSummary } from '../services/account.service.js';
import type { SnapshotDay } from '../services/snapshot.service.js';
import type { Services } from '../services.js';
import type { UpstreamBase, UpstreamTable } from '../upstream/types.js';

/** Batching and caching of one operation's reads, so a list of N items costs a fixed number of queries. */
export interface Loaders {
  /** The caller's usage base by REST id; null when missing or another account's. */
  usageBase: DataLoader<string, UsageBase | null>;
  /** The newest counted day of a usage base (already access-checked) by REST id. */
  latestSnapshot: DataLoader<string, SnapshotDay | null>;
  /** The tables of an upstream base; null when the upstream does not know the base. */
  airtableTables: DataLoader<string, UpstreamTable[] | null>;
  airtableBases(): Promise<UpstreamBase[]>;
}

export function createLoaders({ usageBases, snapshots, airtableLookup }: Services, account: AccountSummary | undefined): Loaders {
  let bases: Promise<UpstreamBase[]> | undefined;
  return {
    usageBase: new DataLoader(async (ids) => {
      if (!account) return ids.map(() => null);
      if (ids.length === 1) return [await orNull(usageBases.get(account.id, ids[0]))];
      // Several at once (nodes(ids)): the account's list in one query beats one query per id.
      const byId = new Map((await usageBases.list(account.id)).map((base) => [base.id, base]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    latestSnapshot: new DataLoader(async (ids) => {
      const latest = await snapshots.latestOf([...ids]);
      return ids.map((id) => latest.get(id) ?? null);
    }),
    airtableTables: new DataLoader(async (baseIds) => Promise.all(baseIds.map((id) => orNull(airtableLookup.listTables(id))))),
    airtableBases: () => (bases ??= airtableLookup.listBases()),
  };
}

/** A look-up's result, or null for `not_found`; every other failure stays a failure. */
async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return null;
    throw error;
  }
}
