import type { IncomingMessage } from 'node:http';
import type { CookieOptions, Response } from 'express';
import { SESSION_LIFETIME_MS, TOKEN_PATTERN } from '../services/credentials/session-token.js';

export const SESSION_COOKIE = 'basewatch_session';

/**
 * The session token from the Cookie header, or undefined when there is none or it is not one of ours. Takes any
 * HTTP request: an express one, or a WebSocket's upgrade request (src/graphql/subscriptions.ts).
 */
export function readSessionCookie(req: Pick<IncomingMessage, 'headers'>): string | undefined {
  const value = readCookie(req, SESSION_COOKIE);
  return value !== undefined && TOKEN_PATTERN.test(value) ? value : undefined;
}

/** The first cookie of this name in the Cookie header, as sent (our cookies' values need no decoding). */
export function readCookie(req: Pick<IncomingMessage, 'headers'>, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Cookies are Secure when the app's public address is https (see cookieOptions). */
export const secureCookies = (publicUrl: string | undefined): boolean => publicUrl?.startsWith('https:') ?? false;

/**
 * HttpOnly, SameSite=Lax, Path=/; Secure when PUBLIC_URL is https. The app does not trust proxies, so
 * X-Forwarded-Proto is not read: behind a TLS-terminating proxy, PUBLIC_URL names the https address.
 */
const cookieOptions = (secure: boolean): CookieOptions => ({ httpOnly: true, sameSite: 'lax', path: '/', secure });

export function setSessionCookie(res: Response, token: string, secure: boolean): void {
  res.cookie(SESSION_COOKIE, token, { ...cookieOptions(secure), maxAge: SESSION_LIFETIME_MS });
}

export function clearSessionCookie(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(secure));
}
