import { afterEach, describe, expect, it } from 'vitest';
import {
  acquireSlot,
  lockOut,
  rateLimiterCount,
  resetRateLimiters,
  sweepIdleRateLimiters,
  WINDOW_MS,
  type RateLimitScope,
} from '../../src/upstream/rate-limiter.js';
import { busiestWindow } from './busiest-window.js';

const scope = (baseId?: string, userKey = 'usrTest'): RateLimitScope => ({
  apiBaseUrl: 'http://upstream.test',
  userKey,
  baseId,
  requestsPerSecond: 5,
});

/** Takes a place and puts the request on the wire at once, as a caller with a warm connection does. */
const sendNow = (scope: RateLimitScope) => acquireSlot(scope).then((slot) => slot.sent());

afterEach(() => resetRateLimiters());

describe('rate limiter', () => {
  it('starts at most 5 requests per base in any second, in arrival order', async () => {
    const order: number[] = [];
    const instants: number[] = [];
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        sendNow(scope('appA')).then(() => {
          order.push(index);
          instants.push(Date.now());
        }),
      ),
    );

    expect(order).toEqual([...Array(12).keys()]);
    expect(busiestWindow(instants)).toBeLessThanOrEqual(5);
  });

  it('keeps separate budgets for separate bases', async () => {
    const started = Date.now();
    const bases = ['appA', 'appB', 'appC'];
    await Promise.all(bases.flatMap((base) => Array.from({ length: 5 }, () => sendNow(scope(base)))));
    expect(Date.now() - started).toBeLessThan(WINDOW_MS);
  });

  it('starts at most 50 requests per token in any second, base requests included', async () => {
    const instants: number[] = [];
    const started = () => instants.push(Date.now());
    const tokenOnly = Array.from({ length: 30 }, () => sendNow(scope()).then(started));
    const perBase = Array.from({ length: 30 }, (_, i) => sendNow(scope(`app${i % 10}`)).then(started));

    await Promise.all([...tokenOnly, ...perBase]);

    expect(instants).toHaveLength(60);
    expect(busiestWindow(instants)).toBeLessThanOrEqual(50);
  });

  it('counts a request from when it was sent, and holds its place until then', async () => {
    const five = await Promise.all(Array.from({ length: 5 }, () => acquireSlot(scope('appA'))));
    let sixthAt = 0;
    const sixth = sendNow(scope('appA')).then(() => (sixthAt = Date.now()));

    // None of the five has left yet (cold connections, a busy event loop): a window later they still hold their places.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 50));
    expect(sixthAt).toBe(0);

    const sentAt = Date.now();
    for (const slot of five) slot.sent(sentAt);
    await sixth;
    expect(sixthAt).toBeGreaterThanOrEqual(sentAt + WINDOW_MS - 2);
  });

  it('holds every request of a base until the lock-out ends', async () => {
    await sendNow(scope('appA'));
    lockOut(scope('appA'), 300);
    const lockedAt = Date.now();
    let otherBaseAt = 0;

    await Promise.all([sendNow(scope('appA')), sendNow(scope('appB')).then(() => (otherBaseAt = Date.now()))]);

    expect(Date.now() - lockedAt).toBeGreaterThanOrEqual(295);
    expect(otherBaseAt - lockedAt).toBeLessThan(250);
  });

  it('forgets idle bases and keeps no timer for them', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const timersBefore = timers();

    // One token per base, so the 50-per-second token budget does not make this test wait.
    await Promise.all(Array.from({ length: 10_000 }, (_, i) => sendNow(scope(`app${i}`, `tok${i}`))));
    expect(timers()).toBe(timersBefore);
    expect(rateLimiterCount()).toBe(20_000);

    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 20));
    sweepIdleRateLimiters();
    expect(rateLimiterCount()).toBe(0);
  });
});
