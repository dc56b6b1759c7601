import { isUtf8 } from 'node:buffer';
import type { NextFunction, Request, Response } from 'express';
import { invalidUtf8Error, jsonParseError } from './error-handler.js';

const PLAIN_JSON = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;

/**
 * Reads the JSON body of POSTs to the given path, as express.json() with our options would, for the common case only:
 * `application/json` in UTF-8, not compressed, with a Content-Length within the limit. Anything else is left to
 * express.json(), which follows. A third of the cost of a small GraphQL request was body-parser's generality
 * (type-is, raw-body, charset decoding streams) spent on these plain bodies.
 */
export function leanJsonBody(path: string, limitBytes: number) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || req.path !== path) return next();
    const { 'content-type': type, 'content-encoding': encoding, 'content-length': declared } = req.headers;
    const length = Number(declared);
    if (!type || !PLAIN_JSON.test(type) || (encoding && encoding.toLowerCase() !== 'identity')) return next();
    if (declared === undefined || !Number.isSafeInteger(length) || length > limitBytes) return next();
    const chunks: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    });
    req.once('error', next);
    req.once('end', () => {
      // Node's parser ends the body at Content-Length: fewer bytes mean the client went away.
      if (received !== length) return;
      const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
      if (!isUtf8(bytes)) return next(invalidUtf8Error());
      const text = bytes.toString('utf8');
      // Strict, as body-parser is: the top level must be an object or an array.
      const first = /\S/.exec(text)?.[0];
      if (first !== '{' && first !== '[') return next(jsonParseError(text));
      try {
        req.body = JSON.parse(text);
      } catch {
        return next(jsonParseError(text));
      }
      next();
    });
  };
}
