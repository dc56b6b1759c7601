import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt (node:crypto, no native add-on): N = 2^15, r = 8, p = 1 uses 32 MiB and about 50–100 ms per hash here. */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url), so the cost can rise later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A stored hash of the current cost that no password gives (random key bytes, not a derived key): checking it costs
 * one real verification and needs no hashing first, so the first check is as quick as the next.
 */
const DECOY = ['scrypt', COST.N, COST.r, COST.p, randomBytes(16).toString('base64url'), randomBytes(KEY_BYTES).toString('base64url')].join(
  '$',
);

/**
 * Spends the time of one real verification when there is no hash to check (unknown e-mail, no password set yet),
 * so how long sign-in takes does not tell whether an e-mail has an account.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  await verifyPassword(password, DECOY);
  return false;
}

/** The rules of a new password; the message of the first one it breaks, or undefined. */
export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return 'password must not be the e-mail address';
  return undefined;
}
