import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/** Bodies below this are sent as they are: compressing them costs more than it saves. */
const GZIP_FROM_BYTES = 8_192;

/** A strong ETag from what names a body's content (the entity version and query it was rendered from). */
export function digestEtag(data: string): string {
  return `"${createHash('sha256').update(data).digest('base64url').slice(0, 32)}"`;
}

/**
 * A JSON body rendered by hand, with an ETag where one names its content (a matching If-None-Match gets a 304); a
 * gzip-accepting client gets gzip.
 */
export class JsonBody {
  constructor(
    readonly body: string,
    readonly etag?: string,
  ) {}

  send(req: Request, res: Response): void {
    // Added to, not set: CORS put `Origin` there.
    res.vary('Accept-Encoding');
    if (this.etag !== undefined) {
      res.setHeader('ETag', this.etag);
      res.setHeader('Cache-Control', 'private, no-cache');
      res.vary('Authorization');
      if (req.method === 'GET' && req.headers['if-none-match'] === this.etag) return void res.status(304).end();
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    const bytes = Buffer.from(this.body);
    if (bytes.length >= GZIP_FROM_BYTES && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      return void res.end(gzipSync(bytes, { level: 6 }));
    }
    res.end(bytes);
  }
}
