import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRedis } from '../../src/redis.js';
import { WINDOW_MS, type RateLimitScope } from '../../src/upstream/rate-limiter.js';
import { RedisUpstreamLimiter } from '../../src/upstream/redis-limiter.js';
import { dropKeys, redisAvailable, TEST_REDIS_URL, testKeyPrefix } from '../support/redis.js';

const available = await redisAvailable();
const base = (baseId: string): RateLimitScope => ({ apiBaseUrl: 'http://upstream.test', userKey: 'usr1', baseId, requestsPerSecond: 5 });

let prefix: string;
let connections: Redis[];
/** Two limiters on two connections: what two replicas hold. */
let replicas: [RedisUpstreamLimiter, RedisUpstreamLimiter];

beforeEach(async () => {
  prefix = testKeyPrefix('limiter');
  connections = [openRedis({ url: TEST_REDIS_URL, keyPrefix: prefix }, 'a'), openRedis({ url: TEST_REDIS_URL, keyPrefix: prefix }, 'b')];
  // Both connected before a test starts: a command queued on a connection still connecting reaches Redis after one
  // sent later on a connection already up (on a loaded machine, a lock-out after the other replica's request).
  await Promise.all(connections.map((connection) => connection.ping()));
  replicas = [new RedisUpstreamLimiter(connections[0]), new RedisUpstreamLimiter(connections[1])];
});
afterEach(async () => {
  for (const connection of connections) connection.disconnect();
  await dropKeys(prefix);
});

/** The most grants that fall within any span of `spanMs`. */
function mostWithin(instants: number[], spanMs: number): number {
  const sorted = [...instants].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= spanMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe.skipIf(!available)('RedisUpstreamLimiter', () => {
  it('shares a base’s 5 requests a second between replicas', async () => {
    const granted: number[] = [];
    await Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        const slot = await replicas[i % 2].acquire(base('appSHARED'));
        granted.push(Date.now());
        slot.sent();
      }),
    );
    expect(granted).toHaveLength(16);
    // Granted as they are sent: at most 5 in any window, so 16 take three windows more.
    expect(mostWithin(granted, WINDOW_MS - 25)).toBeLessThanOrEqual(5);
    expect(Math.max(...granted) - Math.min(...granted)).toBeGreaterThanOrEqual(3 * WINDOW_MS - 50);
  });

  it('shares the user’s 50 a second across bases and replicas', async () => {
    const granted: number[] = [];
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const slot = await replicas[i % 2].acquire(base(`app${String(i % 12).padStart(3, '0')}`));
        granted.push(Date.now());
        slot.sent();
      }),
    );
    expect(mostWithin(granted, WINDOW_MS - 25)).toBeLessThanOrEqual(50);
  });

  it('holds a place granted to one replica until its request is sent', async () => {
    const held = await Promise.all(Array.from({ length: 5 }, () => replicas[0].acquire(base('appHELD'))));
    let sixth = 0;
    const waiting = replicas[1].acquire(base('appHELD')).then(() => (sixth = Date.now()));
    await sleep(WINDOW_MS + 200);
    expect(sixth).toBe(0);
    const sentAt = Date.now();
    for (const slot of held) slot.sent();
    await waiting;
    expect(sixth - sentAt).toBeGreaterThanOrEqual(WINDOW_MS - 50);
  });

  it('locks a base out on every replica after one of them met a 429', async () => {
    // Timed from the lock-out itself: on a loaded machine the pause before asking can take most of the 600 ms.
    const lockedAt = Date.now();
    replicas[0].lockOut(base('appLOCKED'), 600);
    await sleep(20);
    await replicas[1].acquire(base('appLOCKED'));
    expect(Date.now() - lockedAt).toBeGreaterThanOrEqual(580);
    // Another base of the same user is not locked.
    const other = Date.now();
    await replicas[1].acquire(base('appFREE'));
    expect(Date.now() - other).toBeLessThan(300);
  });
});
