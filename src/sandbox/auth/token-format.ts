import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Secrets come from the system's randomness, never the seeded id streams: a token must not be guessable. */
export function randomAlnum(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ALNUM[randomInt(ALNUM.length)];
  return text;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** Tokens are kept (and saved) only as this digest. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** Airtable's observed PAT shape: `pat` + 14 alphanumerics (the token's id) + `.` + 64 hex = 82 characters. */
export function newPersonalToken(): { id: string; token: string } {
  const id = `pat${randomAlnum(14)}`;
  return { id, token: `${id}.${randomHex(32)}` };
}

/**
 * The observed access-token shape, `oaa<14>.v1.<base64url JSON>.<64 hex>` (airtable-oauth.md §2.1); clients must
 * treat it as opaque.
 */
export function newAccessToken(details: { userId: string; expiresAt: number; clientId: string }): string {
  const json = JSON.stringify({
    userId: details.userId,
    expiresAt: new Date(details.expiresAt).toISOString(),
    oauthApplicationId: oauthApplicationId(details.clientId),
  });
  return `oaa${randomAlnum(14)}.v1.${Buffer.from(json).toString('base64url')}.${randomHex(32)}`;
}

export function newRefreshToken(): string {
  return `oar${randomAlnum(14)}.v1.${randomHex(32)}`;
}

export function newAuthorizationCode(): string {
  return `${randomAlnum(14)}.v1.${randomHex(32)}`;
}

/** `oap…`, stable per client id. */
export function oauthApplicationId(clientId: string): string {
  const digest = createHash('sha256').update(clientId).digest();
  let id = 'oap';
  for (let i = 0; i < 14; i++) id += ALNUM[digest[i]! % ALNUM.length];
  return id;
}
