import type { RequestHandler } from 'express';
import { principalOf, setPrincipal } from './auth/principal.js';
import type { SandboxAuth } from './auth/sandbox-auth.js';
import { airtableError, authenticationRequired } from './sandbox-errors.js';

/** `Authorization: Bearer <token>`: the admin token, a user's PAT or a live OAuth access token; else 401. */
export function createAuthMiddleware(auth: SandboxAuth): RequestHandler {
  return (req, _res, next) => {
    const match = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
    const principal = match ? auth.resolve(match[1]!) : undefined;
    if (principal) setPrincipal(req, principal);
    next(principal ? undefined : authenticationRequired());
  };
}

/** `/_control/*` is for the admin token (SANDBOX_TOKEN) alone; any other valid token gets a 403. */
export const adminOnly: RequestHandler = (req, _res, next) => {
  next(
    principalOf(req)?.admin
      ? undefined
      : airtableError(403, 'INVALID_PERMISSIONS', 'Only the sandbox admin token (SANDBOX_TOKEN) may call /_control.'),
  );
};
