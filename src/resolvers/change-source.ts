import type { ChangePosition } from '../services/audit/change-position.js';
import type { ChangeFilterQuery, ChangeWindow } from '../services/audit/change-query.service.js';
import type { ChangeRecord } from '../services/audit/change-row.js';
import type { GraphqlContext } from './context.js';
import type { KeysetSource } from './relay/paginate.js';
import { toChangeType, type ChangeType } from './types/change.type.js';

/**
 * A config's logged changes as a keyset source, newest first like REST; the key is (occurredAt, id). A page without
 * cursors goes through the DataLoader, so the configs of a list share one statement.
 */
export function changeSource(
  context: GraphqlContext,
  configId: string,
  filter: ChangeFilterQuery,
): KeysetSource<ChangeType, ChangePosition> {
  const { changeQueries } = context.services;
  // The config was loaded (and access-checked) through the same loader earlier in the operation: no second query.
  // Its changes version names the service's cached pages.
  const versioned = async () => ({ id: configId, changesVersion: (await context.loaders.monitoringConfig.load(configId))?.changesVersion });
  const asNodes = (records: ChangeRecord[]) => records.map((record) => toChangeType(configId, record));
  const windowOf = async (bounds: ChangeWindow) => asNodes(await changeQueries.window(await versioned(), filter, bounds));
  return {
    keyOf: (change) => ({ occurredAt: change.occurredAt, id: Number(change.restId) }),
    load: async ({ after, before, limit, from }) => {
      const end = from === 'start' ? 'newest' : 'oldest';
      if (after === undefined && before === undefined) {
        const { changesVersion } = await versioned();
        return asNodes(await context.loaders.changeWindow.load({ configId, changesVersion, filter, limit, end }));
      }
      return windowOf({ olderThan: after, newerThan: before, limit, end });
    },
    // Ids are integers, so (t, id − 1) and (t, id + 1) make the exclusive bounds inclusive of the cursor's own change.
    existsAtOrBefore: async (key) => (await windowOf({ newerThan: { ...key, id: key.id - 1 }, limit: 1, end: 'oldest' })).length > 0,
    existsAtOrAfter: async (key) => (await windowOf({ olderThan: { ...key, id: key.id + 1 }, limit: 1, end: 'newest' })).length > 0,
    count: () => context.loaders.counts.changes.load({ configId, filter }),
  };
}
