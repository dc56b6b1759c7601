import { createHash, randomBytes } from 'node:crypto';

/** A session cookie's or set-password link's token: 256 random bits, base64url. */
export const generateToken = (): string => randomBytes(32).toString('base64url');

/** Tokens carry 256 bits of randomness, so one fast hash is enough to store them (as for API keys). */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The session's CSRF token, derived from the cookie's token: nothing more to store, the same for the session's
 * whole life, and no way back from it to the cookie.
 */
export const csrfTokenOf = (sessionToken: string): string => createHash('sha256').update(`csrf\0${sessionToken}`).digest('base64url');

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** How long a web session lasts after its last use. */
export const SESSION_LIFETIME_MS = 14 * 24 * 60 * 60 * 1000;
