import { AppError } from '../../errors.js';

/**
 * Why an OAuth callback stored nothing, as a fixed code: the web application shows its own text for each, so a link
 * to the settings page cannot put words there.
 */
export type OAuthFailure = 'not_configured' | 'wrong_browser' | 'expired' | 'denied' | 'authorization_failed' | 'code_refused';

/** A 400 `invalid_request` of the OAuth flow, with its fixed reason. */
export class OAuthRefusal extends AppError {
  constructor(
    readonly reason: OAuthFailure,
    message: string,
  ) {
    super('invalid_request', message);
  }
}
