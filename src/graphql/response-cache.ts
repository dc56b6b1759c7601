import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { CachedBody, digestEtag } from '../rest/http/cached-body.js';
import { VISIBLE_BASES_TTL_MS } from '../services/connections/visible-bases.js';
import type { DatabaseVersion } from '../services/database-version.js';

interface Entry {
  version: string;
  body: CachedBody;
}

/**
 * Rendered responses of GraphQL queries, reused while the database is unchanged: each is kept under the caller's
 * account and the request as sent, with the database version read before it ran, and is served only while that
 * version is still current (and for a minute at most), so any write, by anyone, retires every entry. Only queries that answered without errors
 * and read nothing from outside the database are kept (see GraphqlContext.reuse).
 */
export class GraphqlResponseCache {
  private readonly entries: LRUCache<string, Entry>;

  constructor(
    maxBytes: number,
    readonly version: DatabaseVersion,
  ) {
    // Kept a minute at most: whether an account's connection still sees a base is not in the database, and is
    // itself known a minute late at most (VISIBLE_BASES_TTL_MS).
    this.entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => entry.body.cacheSize, ttl: VISIBLE_BASES_TTL_MS });
  }

  /** The cache key of a request, or null when it is not one a response is kept for. */
  keyOf(req: Request, accountId: string): string | null {
    const request = requestKeyOf(req);
    return request === null ? null : `${accountId}\n${req.headers.accept ?? ''}\n${request}`;
  }

  get(key: string, version: string): CachedBody | undefined {
    const entry = this.entries.get(key);
    return entry?.version === version ? entry.body : undefined;
  }

  set(key: string, version: string, body: string | Buffer, contentType: string): CachedBody {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const entry = { version, body: new CachedBody(bytes, digestEtag(bytes), contentType) };
    this.entries.set(key, entry);
    return entry.body;
  }
}

/**
 * A GET by its query string, a POST by its JSON body; nothing else is kept. Every check that is not Apollo's own
 * (authentication, CSRF) runs before the cache is asked, so a reused answer skips none of them.
 */
function requestKeyOf(req: Request): string | null {
  if (req.method === 'GET') return `GET ${req.url}`;
  const body = req.body as unknown;
  if (req.method !== 'POST' || !req.is('application/json') || typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  return JSON.stringify(body);
}
