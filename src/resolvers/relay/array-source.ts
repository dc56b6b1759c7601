import type { KeysetSource, KeysetWindow } from './paginate.js';

/**
 * A keyset source over a list already in memory, in connection order (an account's usage bases, later its
 * monitoring configs and webhooks). Keys compare with `compare`; a cursor's item may have gone since.
 */
export function arraySource<T, K>(items: T[], keyOf: (item: T) => K, compare: (a: K, b: K) => number): KeysetSource<T, K> {
  return {
    keyOf,
    load: async ({ after, before, limit, from }: KeysetWindow<K>) => {
      const window = items.filter(
        (item) => (after === undefined || compare(keyOf(item), after) > 0) && (before === undefined || compare(keyOf(item), before) < 0),
      );
      return from === 'start' ? window.slice(0, limit) : window.slice(Math.max(0, window.length - limit));
    },
    existsAtOrBefore: async (key) => items.some((item) => compare(keyOf(item), key) <= 0),
    existsAtOrAfter: async (key) => items.some((item) => compare(keyOf(item), key) >= 0),
    count: async () => items.length,
  };
}

/** Lexicographic order of tuples of strings (e.g. [createdAt ISO, id]). */
export function compareTuples(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}
