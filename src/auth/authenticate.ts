import type { NextFunction, Request, Response } from 'express';
import type { AccountService } from '../services/account.service.js';
import type { SessionService } from '../services/users/session.service.js';
import { parseAuthorizationHeader } from '../services/credentials/api-key.js';
import { readSessionCookie, setSessionCookie } from './session-cookie.js';

/**
 * How a request proved its account (`res.locals.authMethod`): an API key in the Authorization header, or the web
 * application's session cookie; requireCsrfToken checks what only a session needs.
 */
export type AuthMethod = 'api_key' | 'session';

/**
 * Resolves the caller's account (`res.locals.account`). An Authorization header wins: with one, the cookie is not
 * read (a wrong key stays unauthenticated, it does not fall back to the browser's session). An API key sets
 * `apiKeyId`; a session cookie sets `userId`, `sessionId`, `sessionToken` and `csrfToken`, and is sent again when
 * its 14-day expiry slid. Without either the request passes on unauthenticated: each route decides whether it needs
 * an account, so health checks and the document answer whatever the headers say.
 */
export function authenticate(accounts: AccountService, sessions: SessionService, secureCookie: boolean) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.headers.authorization !== undefined) {
      const key = parseAuthorizationHeader(req.headers.authorization);
      const caller = key ? await accounts.authenticate(key) : null;
      if (caller) {
        res.locals.account = caller.account;
        res.locals.apiKeyId = caller.keyId;
        res.locals.authMethod = 'api_key' satisfies AuthMethod;
      }
      return next();
    }
    const token = readSessionCookie(req);
    const session = token ? await sessions.authenticate(token) : null;
    if (token && session) {
      res.locals.account = session.account;
      res.locals.user = session.user;
      res.locals.sessionId = session.sessionId;
      res.locals.sessionToken = token;
      res.locals.csrfToken = session.csrfToken;
      res.locals.authMethod = 'session' satisfies AuthMethod;
      if (session.extended) setSessionCookie(res, token, secureCookie);
    }
    next();
  };
}
