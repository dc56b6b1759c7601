import type { AuthorizeErrorCode } from './oauth-errors.js';
import type { OAuthClients, StoredOAuthClient } from './oauth-clients.js';
import { CODE_CHALLENGE_PATTERN } from './pkce.js';

/** A valid authorization request (airtable-oauth.md §1.1). */
export interface AuthorizeRequest {
  client: StoredOAuthClient;
  redirectUri: string;
  scopes: string[];
  state: string;
  codeChallenge: string;
}

export type AuthorizeCheck =
  | { kind: 'valid'; request: AuthorizeRequest }
  /** Unknown client or redirect URI: an error page, never a redirect. */
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; redirectUri: string; error: AuthorizeErrorCode; description: string; state: string | undefined };

const STATE_PATTERN = /^[A-Za-z0-9._-]{16,1024}$/;
const PARAMETERS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'];

/** Checks in the platform's order: client and redirect URI first (no redirect), then the rest (error redirect). */
export function checkAuthorizeRequest(params: URLSearchParams, clients: OAuthClients): AuthorizeCheck {
  const clientIds = params.getAll('client_id');
  const client = clientIds.length === 1 ? clients.get(clientIds[0]!) : undefined;
  if (!client) return { kind: 'page', message: 'The client_id does not name a registered OAuth integration.' };
  const redirectUris = params.getAll('redirect_uri');
  if (redirectUris.length !== 1 || !client.redirectUris.includes(redirectUris[0]!)) {
    return { kind: 'page', message: 'The redirect_uri does not exactly match a redirect URI registered for this integration.' };
  }
  const redirectUri = redirectUris[0]!;
  const state = params.get('state') ?? undefined;
  const refuse = (error: AuthorizeErrorCode, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    redirectUri,
    error,
    description,
    state,
  });

  const repeated = PARAMETERS.find((name) => params.getAll(name).length > 1);
  if (repeated) return refuse('invalid_request', `The parameter ${repeated} was given more than once.`);
  const responseType = params.get('response_type');
  if (responseType === null) return refuse('invalid_request', 'response_type is required.');
  if (responseType !== 'code') return refuse('unsupported_response_type', 'response_type must be code.');
  if (state === undefined || !STATE_PATTERN.test(state)) {
    return refuse('invalid_request', 'state must be 16 to 1024 characters of A-Z a-z 0-9 . - _');
  }
  const scope = params.get('scope') ?? '';
  const scopes = scope.split(' ');
  if (scope === '' || scopes.includes('')) return refuse('invalid_scope', 'scope must be a space-delimited list of at least one scope.');
  if (new Set(scopes).size !== scopes.length) return refuse('invalid_scope', 'scope lists a scope more than once.');
  const unknown = scopes.find((item) => !client.scopes.includes(item));
  if (unknown) return refuse('invalid_scope', `The scope ${unknown} is not registered for this integration.`);
  const codeChallenge = params.get('code_challenge');
  if (codeChallenge === null || !CODE_CHALLENGE_PATTERN.test(codeChallenge)) {
    return refuse('invalid_request', 'code_challenge is required: the base64url SHA-256 of the code_verifier (43 characters).');
  }
  if (params.get('code_challenge_method') !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256.');
  return { kind: 'valid', request: { client, redirectUri, scopes, state, codeChallenge } };
}

/** The redirect URI with these parameters added (any query it had is kept). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  return url.toString();
}

/** The request's own parameters, to carry through the consent form. */
export function authorizeParameters(params: URLSearchParams): Array<[string, string]> {
  return PARAMETERS.flatMap((name) => {
    const value = params.get(name);
    return value === null ? [] : [[name, value] as [string, string]];
  });
}
