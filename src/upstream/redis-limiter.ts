import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import type { UpstreamLimiter } from './limiter.js';
import { DEFAULT_REQUESTS_PER_SECOND, TOKEN_REQUESTS_PER_SECOND, WINDOW_MS, type RateLimitScope } from './rate-limiter.js';
import { Slot } from './sliding-window.js';

/**
 * How long a granted place counts while its request has not been sent: past the longest a request can wait for its
 * socket, so a place is never freed early, yet a process that died holding places frees them.
 */
const UNSENT_HOLD_MS = 60_000;
/** How long to wait before asking again when every place is held by a request not yet sent. */
const UNSENT_POLL_MS = 10;

/**
 * Grants a place in every window named, or says how long until one is free. A window is a sorted set of places
 * scored by the instant they count from: a sent request from when it was written (it then counts for WINDOW_MS), an
 * unsent one from UNSENT_HOLD_MS ahead. Time is Redis's own, so replicas on hosts with drifting clocks agree.
 *   KEYS: the lock-out keys, then the window keys     ARGV: windowMs, holdMs, member, locks count, then each window's limit
 *   → { 1, 0, now } granted; { 0, delayMs, now } refused
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local windowMs, holdMs, member, locks = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
local delay = 0
for i = 1, locks do
  local lockedUntil = tonumber(redis.call('GET', KEYS[i]) or '0')
  if lockedUntil - now > delay then delay = lockedUntil - now end
end
for i = locks + 1, #KEYS do
  local limit = tonumber(ARGV[4 + i - locks])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - windowMs)
  local count = redis.call('ZCARD', KEYS[i])
  if count >= limit then
    local freeing = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
    local wait = tonumber(freeing[2]) + windowMs - now
    if wait > delay then delay = wait end
  end
end
if delay > 0 then return { 0, delay, now } end
for i = locks + 1, #KEYS do
  redis.call('ZADD', KEYS[i], now + holdMs, member)
  redis.call('PEXPIRE', KEYS[i], windowMs + holdMs)
end
return { 1, 0, now }
`;

/** Moves a place to the instant its request was written (only if it is still there).   ARGV: member, sentAt */
const SENT = `
for i = 1, #KEYS do redis.call('ZADD', KEYS[i], 'XX', tonumber(ARGV[2]), ARGV[1]) end
return 1
`;

/** Locks a scope until now + lockoutMs, never shortening a longer lock.   ARGV: lockoutMs */
const LOCK_OUT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = now + tonumber(ARGV[1])
if tonumber(redis.call('GET', KEYS[1]) or '0') < untilMs then redis.call('SET', KEYS[1], untilMs, 'PX', tonumber(ARGV[1])) end
return untilMs
`;

type Commands = {
  limiterAcquire(...args: Array<string | number>): Promise<[number, number, number]>;
  limiterSent(...args: Array<string | number>): Promise<number>;
  limiterLockOut(...args: Array<string | number>): Promise<number>;
};

/**
 * The platform's budgets shared by every replica through Redis: the same windows, limits and lock-out as
 * rate-limiter.ts, counted across processes. Within a process, requests of one window ask in the order they came.
 */
export class RedisUpstreamLimiter implements UpstreamLimiter {
  private readonly redis: Redis & Commands;
  /** The last request asking per window, so this process's requests ask Redis one after the other, in order. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(redis: Redis) {
    redis.defineCommand('limiterAcquire', { lua: ACQUIRE });
    redis.defineCommand('limiterSent', { lua: SENT });
    redis.defineCommand('limiterLockOut', { lua: LOCK_OUT, numberOfKeys: 1 });
    this.redis = redis as Redis & Commands;
  }

  acquire(scope: RateLimitScope): Promise<Slot> {
    const windows = windowsOf(scope);
    const queue = windows[0].key;
    const previous = this.queues.get(queue) ?? Promise.resolve();
    const granted = previous.then(() => this.grant(windows));
    const settled = granted.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(queue, settled);
    void settled.then(() => {
      if (this.queues.get(queue) === settled) this.queues.delete(queue);
    });
    return granted;
  }

  lockOut(scope: RateLimitScope, lockoutMs: number): void {
    if (lockoutMs <= 0) return;
    // Best effort, as a lost answer would be: the platform's 429 repeats if the lock did not take.
    this.redis.limiterLockOut(lockKeyOf(windowsOf(scope)[0].key), lockoutMs).catch(() => undefined);
  }

  private async grant(windows: Window[]): Promise<Slot> {
    const locks = windows.map((window) => lockKeyOf(window.key));
    const keys = windows.map((window) => window.key);
    const limits = windows.map((window) => window.limit);
    const member = randomUUID();
    for (;;) {
      const localNow = Date.now();
      const [granted, delay, redisNow] = await this.redis.limiterAcquire(
        locks.length + keys.length,
        ...locks,
        ...keys,
        WINDOW_MS,
        UNSENT_HOLD_MS,
        member,
        locks.length,
        ...limits,
      );
      if (granted === 1) {
        // Marking it sent moves the place, in Redis's time, to when the request left.
        return new Slot((sentAt) => {
          const at = redisNow + Math.max(0, sentAt - localNow);
          this.redis.limiterSent(keys.length, ...keys, member, at).catch(() => undefined);
        });
      }
      // A delay past the window means a place is held by a request not yet sent: it frees when that one is.
      await sleep(delay > WINDOW_MS ? Math.min(delay, UNSENT_POLL_MS) : delay);
    }
  }
}

interface Window {
  key: string;
  limit: number;
}

/** The scope's own window first (the base's, or the user's), then the user's when the request is a base's. */
function windowsOf(scope: RateLimitScope): Window[] {
  const user = { key: `upstream:${scope.apiBaseUrl} user:${scope.userKey}`, limit: TOKEN_REQUESTS_PER_SECOND };
  if (scope.baseId === undefined) return [user];
  const limit = Math.max(1, Math.floor(scope.requestsPerSecond ?? DEFAULT_REQUESTS_PER_SECOND));
  return [{ key: `upstream:${scope.apiBaseUrl} base:${scope.baseId}`, limit }, user];
}

const lockKeyOf = (windowKey: string) => `${windowKey} lock`;
