import type { IncomingMessage } from 'node:http';
import type { CookieOptions, Response } from 'express';
import { OAUTH_CALLBACK_PATH } from '../http/oauth-callback-path.js';
import { readCookie } from './session-cookie.js';

export const OAUTH_BROWSER_COOKIE = 'basewatch_oauth';

/**
 * Longer than the state's 10 minutes, so that a late callback is told its state expired rather than that this
 * browser did not start the flow.
 */
const LIFETIME_MS = 15 * 60_000;

/**
 * Sent only to the callback. SameSite=Lax still sends it there: the upstream's redirect back is a top-level GET
 * navigation. HttpOnly: no script needs it.
 */
const cookieOptions = (secure: boolean): CookieOptions => ({ httpOnly: true, sameSite: 'lax', path: OAUTH_CALLBACK_PATH, secure });

/** The browser that starts an OAuth flow keeps its binding (oauth-flow.service.ts) until the callback. */
export function setOAuthBrowserCookie(res: Response, binding: string, secure: boolean): void {
  res.cookie(OAUTH_BROWSER_COOKIE, binding, { ...cookieOptions(secure), maxAge: LIFETIME_MS });
}

export function readOAuthBrowserCookie(req: Pick<IncomingMessage, 'headers'>): string | undefined {
  return readCookie(req, OAUTH_BROWSER_COOKIE);
}

/** The callback spent the flow, whatever its outcome. */
export function clearOAuthBrowserCookie(res: Response, secure: boolean): void {
  res.clearCookie(OAUTH_BROWSER_COOKIE, cookieOptions(secure));
}
