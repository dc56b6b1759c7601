import type { ChangePosition } from '../services/audit/change-cursor.js';
import type { ChangeFilterQuery, ChangeWindow } from '../services/audit/change-query.service.js';
import type { ChangeRecord } from '../services/audit/change-row.js';
import type { GraphqlContext } from './context.js';
import type { KeysetSource } from './relay/paginate.js';
import { pagesOf, VersionedPages } from './support/versioned-pages.js';
import { toChangeType, type ChangeType } from './types/change.type.js';

/** Pages of changes as read, per query service, under the config's changes version (as REST keeps its rendered pages). */
const keptChanges = new WeakMap<object, VersionedPages<ChangeType>>();
const KEPT_CHANGES_BYTES = 32 * 1024 * 1024;
// Measured once per kept page: stored before/after run from a few bytes to 99,000 characters each.
const approximateBytes = (changes: ChangeType[]) =>
  changes.reduce((sum, change) => sum + 512 + JSON.stringify(change.before ?? null).length + JSON.stringify(change.after ?? null).length, 0);

/**
 * A config's logged changes as a keyset source, newest first like REST; the key is (occurredAt, id). A page without
 * cursors goes through the DataLoader, so the configs of a list share one statement.
 */
export function changeSource(context: GraphqlContext, configId: string, filter: ChangeFilterQuery): KeysetSource<ChangeType, ChangePosition> {
  const { changeQueries } = context.services;
  const config = { id: configId };
  const pages = pagesOf(keptChanges, changeQueries, () => new VersionedPages(KEPT_CHANGES_BYTES, approximateBytes));
  const filterKey = JSON.stringify(filter);
  const window = async (window: ChangeWindow, read: () => Promise<ChangeRecord[]>) => {
    const asNodes = async () => (await read()).map((record) => toChangeType(configId, record));
    // The config was loaded (and access-checked) through the same loader earlier in the operation: no second query.
    const version = (await context.loaders.monitoringConfig.load(configId))?.changesVersion;
    if (version === undefined) return asNodes();
    return [...(await pages.get(`${configId}:${version}:${filterKey}:${JSON.stringify(window)}`, asNodes))];
  };
  const windowOf = (bounds: ChangeWindow) => window(bounds, () => changeQueries.window(config, filter, bounds));
  return {
    keyOf: (change) => ({ occurredAt: change.occurredAt, id: Number(change.restId) }),
    load: async ({ after, before, limit, from }) => {
      const end = from === 'start' ? 'newest' : 'oldest';
      if (after === undefined && before === undefined) return window({ limit, end }, () => context.loaders.changeWindow.load({ configId, filter, limit, end }));
      return windowOf({ olderThan: after, newerThan: before, limit, end });
    },
    // Ids are integers, so (t, id − 1) and (t, id + 1) make the exclusive bounds inclusive of the cursor's own change.
    existsAtOrBefore: async (key) => (await windowOf({ newerThan: { ...key, id: key.id - 1 }, limit: 1, end: 'oldest' })).length > 0,
    existsAtOrAfter: async (key) => (await windowOf({ olderThan: { ...key, id: key.id + 1 }, limit: 1, end: 'newest' })).length > 0,
    count: () => context.loaders.counts.changes.load({ configId, filter }),
  };
}
