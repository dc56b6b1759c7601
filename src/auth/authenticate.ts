import type { NextFunction, Request, Response } from 'express';
import { unauthorized } from '../errors.js';
import type { AccountService } from '../services/account.service.js';
import { parseAuthorizationHeader } from './api-key.js';

/**
 * Resolves `Authorization` to the caller's account in `res.locals.account`. A request without the header passes
 * on unauthenticated (each route decides whether it needs an account); a header that does not name a live key is a 401.
 */
export function authenticate(accounts: AccountService) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    if (header === undefined) return next();
    const key = parseAuthorizationHeader(header);
    const account = key ? await accounts.authenticate(key) : null;
    if (!account) throw unauthorized();
    res.locals.account = account;
    next();
  };
}
