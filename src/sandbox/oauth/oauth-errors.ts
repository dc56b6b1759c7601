import { SandboxError } from '../sandbox-errors.js';

/** Token-route errors (airtable-oauth.md §3.2): `{error, error_description}`, 401 for invalid_client, 400 otherwise. */
export type TokenErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope';

export function tokenError(error: TokenErrorCode, description: string): SandboxError {
  return new SandboxError(error === 'invalid_client' ? 401 : 400, { error, error_description: description });
}

/** A refresh token presented again within the grace window after it was exchanged (CHG 2023-06-12). The body is an assumption. */
export function refreshConflict(): SandboxError {
  return new SandboxError(409, {
    error: 'conflict',
    error_description: 'This refresh token was exchanged moments ago; use the tokens that exchange returned.',
  });
}

/** Authorize-redirect errors (§3.1). */
export type AuthorizeErrorCode = 'invalid_request' | 'access_denied' | 'unsupported_response_type' | 'invalid_scope';
