import { Router, type NextFunction, type Request, type Response } from 'express';
import { clearOAuthBrowserCookie, readOAuthBrowserCookie } from '../auth/oauth-browser-cookie.js';
import { AppError } from '../errors.js';
import { OAUTH_CALLBACK_PATH } from '../http/oauth-callback-path.js';
import type { Services } from '../services.js';
import { OAuthRefusal, type OAuthFailure } from '../services/connections/oauth-refusal.js';

/** Read (and deleted) by the settings page: `connected`, an OAuthFailure, or `failed`. */
export const OAUTH_OUTCOME_COOKIE = 'basewatch_oauth_outcome';
const OUTCOME_LIFETIME_MS = 60_000;

type Outcome = 'connected' | OAuthFailure | 'failed';

/**
 * A browser that the upstream sends back to the OAuth callback (it asks for text/html) returns to the web
 * application's settings. The outcome travels as a one-time cookie the server sets (a code, never text: the page
 * shows its own words for it), not in the URL, so that a link to /settings cannot make the page say anything.
 * Readable by the page's script (not HttpOnly): it is a fixed word, no secret. Other clients keep the REST answer
 * (JSON) of the callback route, which handles the same code the same way.
 */
export function createOAuthReturnRouter({ oauthFlow }: Services, secureCookie: boolean): Router {
  const router = Router();
  router.get(OAUTH_CALLBACK_PATH, async (req: Request, res: Response, next: NextFunction) => {
    if (!(req.headers.accept ?? '').includes('text/html')) return next();
    const { code, state, error } = req.query;
    clearOAuthBrowserCookie(res, secureCookie);
    let outcome: Outcome;
    try {
      await oauthFlow.complete({ code: single(code), state: single(state), error: single(error) }, readOAuthBrowserCookie(req));
      outcome = 'connected';
    } catch (failure) {
      if (!(failure instanceof AppError)) return next(failure);
      outcome = failure instanceof OAuthRefusal ? failure.reason : 'failed';
    }
    res.cookie(OAUTH_OUTCOME_COOKIE, outcome, { sameSite: 'lax', path: '/settings', secure: secureCookie, maxAge: OUTCOME_LIFETIME_MS });
    res.redirect(303, '/settings');
  });
  return router;
}

const single = (value: unknown): string | undefined => (typeof value === 'string' && value.length <= 2048 ? value : undefined);
