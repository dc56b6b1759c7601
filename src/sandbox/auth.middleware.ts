import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { authenticationRequired } from './sandbox-errors.js';

export function createAuthMiddleware(token: string): RequestHandler {
  const expected = digest(token);
  return (req, _res, next) => {
    const match = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
    next(match && timingSafeEqual(digest(match[1]), expected) ? undefined : authenticationRequired());
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
