import { createHash } from 'node:crypto';
import { SlidingWindow, type Slot } from './sliding-window.js';

export const DEFAULT_REQUESTS_PER_SECOND = 5;
export const TOKEN_REQUESTS_PER_SECOND = 50;
export const DEFAULT_LOCKOUT_MS = 30_000;
/**
 * The platform counts requests on arrival, and windows here count them from when they were written to the socket
 * (src/upstream/wire-instant.ts): 75 ms of margin absorbs the jitter of the way there, for ~7% of a base's budget.
 */
export const WINDOW_MS = 1000 + 75;

const SWEEP_INTERVAL_MS = 10_000;

/** Whose budget a request spends: the base's when `baseId` is set, and always the token's. */
export interface RateLimitScope {
  apiBaseUrl: string;
  /** The upstream user the token acts for (the platform's per-user budget), or a digest of a fixed token. */
  userKey: string;
  baseId?: string;
  requestsPerSecond?: number;
}

// One registry per process: every client for the same upstream base spends the same budget.
const windows = new Map<string, SlidingWindow>();
let lastSweepAt = Date.now();

/**
 * Resolves when a request in `scope` may start, requests starting in the order they asked, with the place it holds:
 * the caller marks it sent (`sendInSlot`), and until then it counts as sent now.
 */
export function acquireSlot(scope: RateLimitScope): Promise<Slot> {
  const window = windowFor(scope);
  if (scope.baseId === undefined) return window.take();
  // Base requests also spend the token's budget: the platform caps all of a token's traffic at 50 per second.
  const key = tokenKey(scope);
  return window.take(() => getOrCreate(key, TOKEN_REQUESTS_PER_SECOND));
}

/** After a 429 nothing in `scope` starts for `lockoutMs`; a 429 outside a base locks the whole token. */
export function lockOut(scope: RateLimitScope, lockoutMs: number): void {
  windowFor(scope).lockUntil(Date.now() + lockoutMs);
}

export function resetRateLimiters(): void {
  for (const window of windows.values()) window.cancelTimer();
  windows.clear();
  lastSweepAt = Date.now();
}

/** Drops windows with nothing to remember, keeping memory proportional to the bases in use right now. */
export function sweepIdleRateLimiters(now = Date.now()): void {
  lastSweepAt = now;
  for (const [key, window] of windows) {
    if (window.isIdleAt(now)) windows.delete(key);
  }
}

export function rateLimiterCount(): number {
  return windows.size;
}

function windowFor(scope: RateLimitScope): SlidingWindow {
  const now = Date.now();
  if (now - lastSweepAt >= SWEEP_INTERVAL_MS) sweepIdleRateLimiters(now);

  if (scope.baseId === undefined) return getOrCreate(tokenKey(scope), TOKEN_REQUESTS_PER_SECOND);
  // Keyed by base alone: the platform's per-base budget is shared by every token that touches the base.
  const limit = scope.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND;
  return getOrCreate(`${scope.apiBaseUrl} base:${scope.baseId}`, limit);
}

function tokenKey(scope: RateLimitScope): string {
  return `${scope.apiBaseUrl} user:${scope.userKey}`;
}

function getOrCreate(key: string, limit: number): SlidingWindow {
  let window = windows.get(key);
  if (window === undefined) {
    window = new SlidingWindow(limit, WINDOW_MS);
    windows.set(key, window);
  } else {
    window.restrictTo(limit);
  }
  return window;
}

/** Keys hold a digest, not the token, so a heap dump of the registry reveals no secret. */
export function fingerprint(token: string): string {
  return createHash('sha256').update(token).digest('base64url').slice(0, 22);
}
