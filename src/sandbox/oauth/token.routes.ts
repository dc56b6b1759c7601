import express, { type Router } from 'express';
import type { SandboxAuth } from '../auth/sandbox-auth.js';
import { authenticateClient } from './client-auth.js';
import { tokenError } from './oauth-errors.js';
import { CODE_VERIFIER_PATTERN, s256 } from './pkce.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * `POST /oauth2/v1/token` (airtable-oauth.md §1.2, §2): form body only; `authorization_code` (10-minute codes,
 * single use even when the exchange fails, PKCE S256) or `refresh_token` (rotation, 409 within the grace window).
 */
export function createTokenRouter(auth: SandboxAuth): Router {
  const router = express.Router();

  router.post('/oauth2/v1/token', express.text({ type: FORM, limit: '100kb' }), (req, res) => {
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    if (!req.is(FORM)) throw tokenError('invalid_request', `The request body must be ${FORM}.`);
    const params = new URLSearchParams(typeof req.body === 'string' ? req.body : '');
    const repeated = [...new Set(params.keys())].find((name) => params.getAll(name).length > 1);
    if (repeated) throw tokenError('invalid_request', `The parameter ${repeated} was given more than once.`);
    const header = req.get('authorization');

    switch (params.get('grant_type')) {
      case 'authorization_code': {
        const code = params.get('code');
        // Burnt before anything is checked: a code is single use even when this exchange fails.
        const redeemed = code ? auth.grants.redeemCode(code) : undefined;
        const client = authenticateClient(header, params, auth.clients);
        if (!code) throw tokenError('invalid_request', 'code is required.');
        if (!redeemed || redeemed.clientId !== client.clientId) {
          throw tokenError('invalid_grant', 'The authorization code is invalid, expired, already used or was issued to another client.');
        }
        const redirectUri = params.get('redirect_uri');
        if (redirectUri === null) throw tokenError('invalid_request', 'redirect_uri is required.');
        if (redirectUri !== redeemed.redirectUri) throw tokenError('invalid_grant', 'redirect_uri differs from the authorization request.');
        const verifier = params.get('code_verifier');
        if (verifier === null || !CODE_VERIFIER_PATTERN.test(verifier)) {
          throw tokenError('invalid_request', 'code_verifier is required: 43 to 128 characters of A-Z a-z 0-9 . - _');
        }
        if (s256(verifier) !== redeemed.codeChallenge)
          throw tokenError('invalid_grant', 'code_verifier does not match the code_challenge.');
        const { clientId, userId, scopes, baseIds } = redeemed;
        res.json(auth.grants.createGrant({ clientId, userId, scopes, baseIds }));
        return;
      }
      case 'refresh_token': {
        const client = authenticateClient(header, params, auth.clients);
        const refreshToken = params.get('refresh_token');
        if (!refreshToken) throw tokenError('invalid_request', 'refresh_token is required.');
        res.json(auth.grants.refresh(refreshToken, client.clientId, params.get('scope') ?? undefined));
        return;
      }
      case null:
        throw tokenError('invalid_request', 'grant_type is required.');
      default:
        throw tokenError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.');
    }
  });

  return router;
}
