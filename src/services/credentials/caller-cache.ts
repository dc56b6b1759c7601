import { LRUCache } from 'lru-cache';

/**
 * How long a key that authenticated stays trusted without asking the database again. A revocation in this process
 * takes effect at once; one made by another process (the CLI, another replica) within this bound.
 */
export const API_KEY_CACHE_TTL_MS = 5_000;

/** Enough for every live key of a large installation; unknown keys are never cached, so guessing cannot fill it. */
const MAX_CACHED_KEYS = 10_000;

/**
 * Callers by the SHA-256 of their key, for API_KEY_CACHE_TTL_MS. A lookup that started before a revocation or an
 * account change in this process is not cached when it ends: it may have read the key or the account before.
 */
export class CallerCache<Caller extends { keyId: string; account: { id: string } }> {
  private readonly entries: LRUCache<string, Caller>;
  private revocations = 0;

  constructor(ttlMs = API_KEY_CACHE_TTL_MS) {
    this.entries = new LRUCache({ max: MAX_CACHED_KEYS, ttl: ttlMs });
  }

  /** Looks the key up on a miss and keeps what it found, unless a revocation happened meanwhile. */
  async getOrLoad(keyHash: string, load: () => Promise<Caller | null>): Promise<Caller | null> {
    const cached = this.entries.get(keyHash);
    if (cached) return cached;
    const revocationsBefore = this.revocations;
    const caller = await load();
    if (caller && this.revocations === revocationsBefore) this.entries.set(keyHash, caller);
    return caller;
  }

  /** Forgets the key; call it once the revocation is written (a lookup still under way then is not kept). */
  revoke(keyHash: string): void {
    this.revocations++;
    this.entries.delete(keyHash);
  }

  /** Forgets every key of the account; call it once a change to the account (its name) is written. */
  forgetAccount(accountId: string): void {
    this.revocations++;
    for (const [keyHash, caller] of this.entries.entries()) if (caller.account.id === accountId) this.entries.delete(keyHash);
  }
}
