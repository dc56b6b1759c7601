import express, { type Router } from 'express';
import { principalOf } from './principal.js';
import { grants } from './scopes.js';

/**
 * `GET /v0/meta/whoami` (no scope needed): `id`; `email` when the token has `user.email:read` (PATs made by
 * `_control/users`, and the admin token, have every scope); `scopes` for OAuth access tokens only.
 */
export function createWhoamiRouter(): Router {
  const router = express.Router();
  router.get('/v0/meta/whoami', (req, res) => {
    const principal = principalOf(req)!;
    res.json({
      id: principal.user.id,
      ...(grants(principal.scopes, 'user.email:read') ? { email: principal.user.email } : {}),
      ...(principal.kind === 'oauth' && principal.scopes !== 'all' ? { scopes: [...principal.scopes] } : {}),
    });
  });
  return router;
}
