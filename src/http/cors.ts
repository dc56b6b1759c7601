import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** What browser apps send: the key, JSON, conditional reads, the session's CSRF token, GraphQL clients' own headers. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'If-None-Match',
  'X-CSRF-Token',
  'apollo-require-preflight',
  'x-apollo-operation-name',
  'apollographql-client-name',
  'apollographql-client-version',
];
/** What they read beyond the CORS-safelisted response headers. */
const EXPOSED_HEADERS = ['ETag', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'Location'];
/** Chromium keeps a preflight at most 2 hours, Firefox a day; 10 minutes lets a changed CORS_ORIGINS apply soon. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * CORS for the REST API and /graphql (CORS_ORIGINS, CONTRACT §7); undefined when no origin is allowed, so nothing
 * is added to any response. A listed origin is echoed and may send credentials (the web application's session
 * cookie); `*` answers every other origin without credentials, which browsers then neither send nor accept. An origin
 * that is not allowed gets no CORS header: its page cannot read the answer. Preflights carry on to optionsResponder,
 * which answers them with the path's methods before any authentication.
 */
export function corsPolicy(allowedOrigins: string[]): RequestHandler | undefined {
  if (allowedOrigins.length === 0) return undefined;
  const listed = new Set(allowedOrigins.filter((origin) => origin !== '*'));
  const anyOrigin = allowedOrigins.includes('*');
  const headers = cors((req, callback) => {
    const origin = req.headers.origin;
    const isListed = origin !== undefined && listed.has(origin);
    callback(null, {
      origin: isListed ? origin : anyOrigin ? '*' : false,
      credentials: isListed,
      // optionsResponder knows each path's methods and answers the preflight.
      methods: [],
      preflightContinue: true,
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    });
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // With listed origins every answer depends on the Origin header, a refusal or a `*` included.
    if (listed.size > 0) res.vary('Origin');
    headers(req, res, next);
  };
}
