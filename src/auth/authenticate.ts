import type { NextFunction, Request, Response } from 'express';
import type { AccountService } from '../services/account.service.js';
import { parseAuthorizationHeader } from './api-key.js';

/**
 * How a request proved its account (`res.locals.authMethod`): an API key in the Authorization header. The web
 * application's session cookie (issue 16) becomes `session`; requireCsrfToken checks what only a session needs.
 */
export type AuthMethod = 'api_key' | 'session';

/**
 * Resolves `Authorization` to the caller's account (`res.locals.account`) and key (`res.locals.apiKeyId`).
 * Without a live key the request passes on unauthenticated: each route decides whether it needs an account, so
 * health checks and the document answer whatever the header says.
 */
export function authenticate(accounts: AccountService) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = parseAuthorizationHeader(req.headers.authorization);
    const caller = key ? await accounts.authenticate(key) : null;
    if (caller) {
      res.locals.account = caller.account;
      res.locals.apiKeyId = caller.keyId;
      res.locals.authMethod = 'api_key' satisfies AuthMethod;
    }
    next();
  };
}
