import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';

/** Bodies below this are sent as they are: compressing them costs more than it saves. */
const GZIP_FROM_BYTES = 8_192;

/** A strong ETag for a cached body: a digest of what names it (a cache key) or of the bytes themselves. */
export function digestEtag(data: string | Buffer): string {
  return `"${createHash('sha256').update(data).digest('base64url').slice(0, 32)}"`;
}

/** A rendered JSON response kept for reuse: its bytes, an ETag, and (made on first demand) its gzip form. */
export class CachedBody {
  private gzipped?: Buffer;

  constructor(
    readonly body: Buffer,
    readonly etag: string,
    readonly contentType = 'application/json; charset=utf-8',
  ) {}

  /** What it may take in memory: the body, with room for the gzip form made on first demand. */
  get cacheSize(): number {
    return Math.ceil(this.body.length * 1.25) + 1;
  }

  /** Sends it, answering a matching If-None-Match (GET) with 304 and an Accept-Encoding: gzip client with the gzip form. */
  send(req: Request, res: Response): void {
    res.setHeader('ETag', this.etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    // Added to, not set: CORS put `Origin` there.
    res.vary('Accept-Encoding, Authorization');
    if (req.method === 'GET' && req.headers['if-none-match'] === this.etag) return void res.status(304).end();
    res.setHeader('Content-Type', this.contentType);
    if (this.body.length >= GZIP_FROM_BYTES && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      this.gzipped ??= gzipSync(this.body, { level: 6 });
      res.setHeader('Content-Encoding', 'gzip');
      return void res.end(this.gzipped);
    }
    res.end(this.body);
  }

}

/**
 * Rendered responses by key, bounded in bytes. Keys must name everything the body depends on (for snapshot pages:
 * the base's snapshot version, bumped by every write, so a stale entry is simply never asked for again).
 *
 * A page is kept from its second request within the last `admitWithin` pages asked for: a walk through more pages
 * than the cache holds would otherwise fill it with pages evicted unused, and that churn (megabytes a second of
 * buffers kept just long enough to reach the old generation) costs the garbage collector's pauses in every
 * request's tail, where it cannot save a single render.
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedBody>;
  private readonly seenOnce: LRUCache<string, true>;

  constructor(maxBytes: number, admitWithin = 256) {
    this.entries = new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => entry.cacheSize });
    this.seenOnce = new LRUCache({ max: admitWithin });
  }

  async getOrRender(key: string, render: () => Promise<string>): Promise<CachedBody> {
    const cached = this.entries.get(key);
    if (cached) return cached;
    // A digest, not the key itself: keys hold query values (filters, cursors) that an ETag cannot carry.
    const entry = new CachedBody(Buffer.from(await render()), digestEtag(key));
    if (this.seenOnce.delete(key)) this.entries.set(key, entry);
    else this.seenOnce.set(key, true);
    return entry;
  }
}
