import { acquireSlot, lockOut, type RateLimitScope } from './rate-limiter.js';
import type { Slot } from './sliding-window.js';

/**
 * Where the platform's budgets are kept: per base (5 requests a second), per upstream user (50) and the lock-out after
 * a 429. One process keeps them in memory (rate-limiter.ts); replicas share them through Redis (redis-limiter.ts).
 */
export interface UpstreamLimiter {
  /** Resolves when a request in `scope` may start, with its place: the caller marks it sent (wire-instant.ts). */
  acquire(scope: RateLimitScope): Promise<Slot>;
  /** After a 429 nothing in `scope` starts for `lockoutMs`; a 429 outside a base locks the whole user. */
  lockOut(scope: RateLimitScope, lockoutMs: number): void;
}

/** This process's own windows. */
export const processLimiter: UpstreamLimiter = { acquire: acquireSlot, lockOut };
