import { describe, expect, it } from 'vitest';
import { ReadModelCache } from '../../src/services/read-model-cache.js';

describe('ReadModelCache', () => {
  it('keeps a value from its second read, and no more than its budget, dropping the least recently used', async () => {
    const cache = new ReadModelCache(10_000);
    let reads = 0;
    const page = (key: string) =>
      cache.get(
        key,
        async () => ({ key, n: ++reads }),
        () => 4_000,
      );
    expect(await page('a')).toEqual({ key: 'a', n: 1 });
    expect(cache.peek('a')).toBeUndefined();
    expect(await page('a')).toEqual({ key: 'a', n: 2 });
    expect(await page('a')).toEqual({ key: 'a', n: 2 });
    await page('b');
    await page('b');
    await page('a');
    // A third page of 4,000 bytes does not fit beside two: b, the least recently used, goes.
    await page('c');
    await page('c');
    expect(cache.peek('a')).toBeDefined();
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('c')).toBeDefined();
    expect(reads).toBe(6);
  });

  it('keeps nothing with a budget of 0', async () => {
    const cache = new ReadModelCache(0);
    let reads = 0;
    for (let i = 0; i < 3; i++)
      await cache.get(
        'a',
        async () => ++reads,
        () => 1,
      );
    expect(reads).toBe(3);
    expect(cache.peek('a')).toBeUndefined();
  });
});
