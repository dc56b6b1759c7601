import express, { type Response, type Router } from 'express';
import type { SandboxAuth } from '../auth/sandbox-auth.js';
import { searchParamsOf } from '../request-helpers.js';
import { authorizeParameters, checkAuthorizeRequest, redirectWith, type AuthorizeRequest } from './authorize-request.js';
import { chooseBasesPage, chooseUserPage, errorPage, type ConsentContext } from './consent-page.js';
import type { Authorization } from './oauth-grants.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * `GET /oauth2/v1/authorize` (airtable-oauth.md §1.1) and the consent form in two script-free steps: choose the
 * sandbox user (GET with `sandbox_user`), then the bases and Allow / Deny (POST). With a consent set by
 * `PUT _control/oauth/consent`, GET answers at once with the redirect.
 */
export function createAuthorizeRouter(auth: SandboxAuth): Router {
  const router = express.Router();
  const path = '/oauth2/v1/authorize';

  router.get(path, (req, res) => {
    const params = searchParamsOf(req);
    const request = validRequest(params, auth, res, 302);
    if (!request) return;
    const consent = auth.getConsent();
    if (consent) {
      if (consent.deny) return deny(res, request, 302);
      return allow(res, auth, request, { userId: consent.userId, baseIds: consent.baseIds }, 302);
    }
    const context = consentContext(request, params);
    const user = auth.directory.getUser(params.get('sandbox_user') ?? '');
    if (!user) return sendPage(res, 200, chooseUserPage(context, auth.directory.listUsers()));
    sendPage(res, 200, chooseBasesPage(context, user, auth.basesOfUser(user.id)));
  });

  router.post(path, express.text({ type: FORM, limit: '100kb' }), (req, res) => {
    const params = new URLSearchParams(req.is(FORM) && typeof req.body === 'string' ? req.body : '');
    const request = validRequest(params, auth, res, 303);
    if (!request) return;
    const decision = params.get('decision');
    if (decision === 'deny') return deny(res, request, 303);
    if (decision !== 'allow') return sendPage(res, 400, errorPage('The consent form was not answered with Allow or Deny.'));
    const user = auth.directory.getUser(params.get('sandbox_user') ?? '');
    if (!user) return sendPage(res, 400, errorPage('The consent form names no sandbox user.'));
    const own = new Set(auth.basesOfUser(user.id).map(({ base }) => base.id));
    const chosen = params.getAll('base');
    const foreign = chosen.find((baseId) => !own.has(baseId));
    if (foreign) return sendPage(res, 400, errorPage(`${foreign} is not a base of ${user.email}.`));
    const baseIds = params.get('all_bases') === 'on' ? 'all' : [...new Set(chosen)];
    allow(res, auth, request, { userId: user.id, baseIds }, 303);
  });

  return router;
}

/** The request, or undefined once the error page or error redirect was sent. */
function validRequest(params: URLSearchParams, auth: SandboxAuth, res: Response, status: 302 | 303): AuthorizeRequest | undefined {
  const check = checkAuthorizeRequest(params, auth.clients);
  if (check.kind === 'valid') return check.request;
  if (check.kind === 'page') sendPage(res, 400, errorPage(check.message));
  else
    res.redirect(status, redirectWith(check.redirectUri, { error: check.error, error_description: check.description, state: check.state }));
  return undefined;
}

function allow(
  res: Response,
  auth: SandboxAuth,
  request: AuthorizeRequest,
  consent: Pick<Authorization, 'userId' | 'baseIds'>,
  status: 302 | 303,
): void {
  const authorization: Authorization = { clientId: request.client.clientId, scopes: request.scopes, ...consent };
  const code = auth.grants.issueCode(authorization, request.redirectUri, request.codeChallenge);
  // Only code and state: code_challenge is no longer echoed (changelog 2025-03-13).
  res.redirect(status, redirectWith(request.redirectUri, { code, state: request.state }));
}

function deny(res: Response, request: AuthorizeRequest, status: 302 | 303): void {
  res.redirect(
    status,
    redirectWith(request.redirectUri, {
      error: 'access_denied',
      error_description: 'The user denied access to the integration.',
      state: request.state,
    }),
  );
}

function consentContext(request: AuthorizeRequest, params: URLSearchParams): ConsentContext {
  return { clientId: request.client.clientId, scopes: request.scopes, parameters: authorizeParameters(params) };
}

function sendPage(res: Response, status: number, html: string): void {
  res
    .status(status)
    .set({
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      'X-Frame-Options': 'DENY',
    })
    .type('html')
    .send(html);
}
