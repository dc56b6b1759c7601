import type { UsageBase } from '../entities/index.js';
import type { SnapshotService } from '../services/snapshot.service.js';
import type { CountLoaders } from './count-loaders.js';
import type { KeysetSource } from './relay/paginate.js';
import { toSnapshotDayType, type SnapshotDayType } from './types/snapshot.type.js';

/**
 * A base's counted days as a keyset source, newest first like REST; the key is the day. Cursor bounds are exclusive,
 * the service's from/to inclusive, so a cursor becomes the day next to it.
 */
export function snapshotSource(
  snapshots: SnapshotService,
  base: UsageBase,
  bounds: { from?: string; to?: string },
  counts: CountLoaders,
): KeysetSource<SnapshotDayType, string> {
  // The service's days are cached and shared: the new array of types is the caller's to reverse.
  const days = async (from: string | undefined, to: string | undefined, limit: number, order: 'newest' | 'oldest') =>
    (await snapshots.range(base, { from, to, limit, order })).map((day) => toSnapshotDayType(base.id, day));
  return {
    keyOf: (day) => day.date,
    load: async ({ after, before, limit, from }) => {
      const newest = minDay(bounds.to, after && shiftDay(after, -1));
      const oldest = maxDay(bounds.from, before && shiftDay(before, 1));
      if (from === 'start') return days(oldest, newest, limit, 'newest');
      return (await days(oldest, newest, limit, 'oldest')).reverse();
    },
    // In newest-first order "at or before" a day means on it or newer.
    existsAtOrBefore: async (day) => (await days(maxDay(bounds.from, day), bounds.to, 1, 'newest')).length > 0,
    existsAtOrAfter: async (day) => (await days(bounds.from, minDay(bounds.to, day), 1, 'newest')).length > 0,
    count: () => counts.snapshotDays.load({ usageBaseId: base.id, ...bounds }),
  };
}

function shiftDay(day: string, by: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + by);
  return date.toISOString().slice(0, 10);
}

/** The earlier of two optional upper bounds (YYYY-MM-DD sorts as text). */
const minDay = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a < b ? a : b);
/** The later of two optional lower bounds. */
const maxDay = (a: string | undefined, b: string | undefined) => (a === undefined ? b : b === undefined || a > b ? a : b);
