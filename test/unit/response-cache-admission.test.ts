import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src/rest/http/cached-body.js';

/** Renders `key`'s page through the cache and says whether it had to render. */
function reader(cache: ResponseCache) {
  let renders = 0;
  return {
    read: async (key: string) => {
      const before = renders;
      const body = await cache.getOrRender(key, async () => {
        renders++;
        return JSON.stringify({ key });
      });
      expect(JSON.parse(body.body.toString())).toEqual({ key });
      return renders > before;
    },
    renders: () => renders,
  };
}

describe('ResponseCache', () => {
  it('keeps a page from its second request on', async () => {
    const { read } = reader(new ResponseCache(1024 * 1024, 4));
    expect([await read('a'), await read('a'), await read('a'), await read('a')]).toEqual([true, true, false, false]);
  });

  it('keeps nothing of a walk through more pages than it remembers, however often it is repeated', async () => {
    const { read, renders } = reader(new ResponseCache(1024 * 1024, 4));
    const pages = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    for (let round = 0; round < 3; round++) for (const page of pages) await read(page);
    expect(renders()).toBe(18);
    // A page asked for again soon enough is kept.
    await read('p6');
    expect(await read('p6')).toBe(false);
  });
});
