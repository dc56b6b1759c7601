import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors.js';
import type { AuthMethod } from './authenticate.js';
import { isGraphqlRead } from './graphql-reads.js';

/** Methods that change nothing (GraphQL runs mutations on POST only; a POSTed query is a read too). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF protection where a forgery is possible: a credential the browser attaches by itself, the web application's
 * session cookie (CONTRACT §9). A write it authenticates must echo the session's token (`res.locals.csrfToken`) in
 * X-CSRF-Token, else 403 csrf_failed. A write is any POST, PUT, PATCH or DELETE but a POST to /graphql whose text is
 * one query. An API key travels in the Authorization header, which no other site can make a browser send, so API-key
 * requests pass whatever their method or content type (urql's GET without a content type, a form-encoded POST); so
 * do unauthenticated ones, which reach nothing done for an account.
 */
export function requireCsrfToken() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const forgeable = (res.locals.authMethod as AuthMethod | undefined) === 'session' && !SAFE_METHODS.has(req.method);
    const allowed =
      !forgeable ||
      sameToken(req.get('x-csrf-token'), res.locals.csrfToken) ||
      // A GraphQL query sent by POST (as Apollo Client does) reads like a GET: nothing to forge.
      (req.method === 'POST' && isGraphqlRead(req.path, req.body));
    if (allowed) next();
    else
      next(new AppError('csrf_failed', 'This write is authenticated by the session cookie: send the session’s csrfToken in X-CSRF-Token'));
  };
}

function sameToken(presented: string | undefined, expected: unknown): boolean {
  if (typeof expected !== 'string' || expected === '' || presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
