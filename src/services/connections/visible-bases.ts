import { LRUCache } from 'lru-cache';
import { isAppError } from '../../errors.js';
import { isUpstreamRequestError } from '../../upstream/upstream-error.js';

/** How long a connection's list of bases is trusted (README: "A base the connection no longer sees"). */
export const VISIBLE_BASES_TTL_MS = 60_000;
/** A listing that failed is not asked for again before this: an upstream outage must not slow every read down. */
const FAILED_LISTING_TTL_MS = 10_000;
const CONNECTIONS_CACHED = 10_000;

/** What is known of the bases a connection sees. */
export type BaseListing =
  | { kind: 'listed'; bases: ReadonlySet<string> }
  /** The connection cannot list at all: none, needing re-authorisation, or its token was refused. */
  | { kind: 'refused' }
  /** The upstream failed: nothing is known. */
  | { kind: 'unknown' };

/** Reads a connection's list of base ids. */
type Lister = () => Promise<Iterable<string>>;

/**
 * The base list of each connection (key: account and upstream user), kept VISIBLE_BASES_TTL_MS and read once
 * however many ask at the same time. A failed read keeps the last list known, else answers `refused`/`unknown`, for
 * FAILED_LISTING_TTL_MS.
 */
export class VisibleBases {
  private readonly cache = new LRUCache<string, BaseListing, Lister>({
    max: CONNECTIONS_CACHED,
    ttl: VISIBLE_BASES_TTL_MS,
    fetchMethod: async (_key, stale, { options, context: list }) => {
      try {
        return { kind: 'listed', bases: new Set(await list()) };
      } catch (error) {
        options.ttl = FAILED_LISTING_TTL_MS;
        if (stale?.kind === 'listed') return stale;
        return isRefusal(error) ? { kind: 'refused' } : { kind: 'unknown' };
      }
    },
  });

  /** The connection's listing under `key`; `list` reads it when it is not kept (or `fresh` is asked for). */
  async get(key: string, list: Lister, fresh = false): Promise<BaseListing> {
    return (await this.cache.fetch(key, { context: list, forceRefresh: fresh })) ?? { kind: 'unknown' };
  }

  /** A list just read for another reason (creating a tracked base, a config) serves the checks that follow. */
  remember(key: string, bases: Iterable<string>): void {
    this.cache.set(key, { kind: 'listed', bases: new Set(bases) });
  }
}

function isRefusal(error: unknown): boolean {
  if (isAppError(error) && error.code === 'upstream_not_connected') return true;
  return isUpstreamRequestError(error) && [401, 403].includes(error.upstreamStatus ?? 0);
}
