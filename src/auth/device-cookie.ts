import { createHash } from 'node:crypto';
import type { CookieOptions, Request, Response } from 'express';
import type { SecretBox } from '../services/secret-box.js';
import { readCookie } from './session-cookie.js';

export const DEVICE_COOKIE = 'basewatch_device';
const LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
const PURPOSE = 'sign-in-device';

/** Sent only to the sign-in endpoints; HttpOnly, SameSite=Lax, Secure as the session cookie. */
const cookieOptions = (secure: boolean): CookieOptions => ({ httpOnly: true, sameSite: 'lax', path: '/auth', secure });

/**
 * A browser that signed in to an e-mail with its password keeps a device cookie for that e-mail: the e-mail sealed
 * under SECRET_KEY (so it cannot be made or altered elsewhere, and does not show the e-mail). It proves nothing on
 * its own; it lets sign-in limits tell the rightful owner's known browsers from everyone else (sign-in-limits.ts).
 */
export class DeviceCookies {
  constructor(
    private readonly secrets: SecretBox,
    private readonly secure: boolean,
  ) {}

  remember(res: Response, email: string): void {
    const value = this.secrets.seal(JSON.stringify({ purpose: PURPOSE, email: normalizedEmail(email) }));
    res.cookie(DEVICE_COOKIE, value, { ...cookieOptions(this.secure), maxAge: LIFETIME_MS });
  }

  /** The device's own key for a limit when it signed in to this e-mail before; else undefined. */
  deviceFor(req: Request, email: string): string | undefined {
    const value = readCookie(req, DEVICE_COOKIE);
    if (!value) return undefined;
    try {
      const sealed = JSON.parse(this.secrets.open(value)) as { purpose?: unknown; email?: unknown };
      if (sealed.purpose !== PURPOSE || sealed.email !== normalizedEmail(email)) return undefined;
    } catch {
      return undefined;
    }
    return createHash('sha256').update(value).digest('base64url');
  }
}

export const normalizedEmail = (email: string): string => email.trim().toLowerCase();
