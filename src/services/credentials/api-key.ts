import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new key: `sk_` and 43 base62 characters (256 bits of randomness). */
export function generateApiKey(): string {
  let digits = '';
  // Rejection sampling keeps every base62 digit equally likely.
  while (digits.length < 43) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && digits.length < 43) digits += BASE62[byte % 62];
    }
  }
  return `sk_${digits}`;
}

/** Keys carry 256 bits of randomness, so one fast hash is enough; a slow KDF would only slow every request. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export const API_KEY_PATTERN = /^sk_[A-Za-z0-9_-]{32,}$/;

/** Reads the key from `Authorization: Bearer sk_…` or the bare `Authorization: sk_…`; undefined when malformed. */
export function parseAuthorizationHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^(?:Bearer\s+)?(\S+)$/i.exec(header.trim());
  const key = match?.[1];
  return key && API_KEY_PATTERN.test(key) ? key : undefined;
}

export const keyPrefix = (key: string) => key.slice(0, 8);
