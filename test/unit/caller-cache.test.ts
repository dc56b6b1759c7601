import { describe, expect, it } from 'vitest';
import { CallerCache } from '../../src/services/credentials/caller-cache.js';

const caller = (keyId: string) => ({ keyId, account: { id: 'acc', name: 'Acme' } });

/** A lookup the test finishes when it chooses. */
function pendingLookup() {
  let finish!: (value: ReturnType<typeof caller>) => void;
  const promise = new Promise<ReturnType<typeof caller>>((resolve) => (finish = resolve));
  return { load: () => promise, finish };
}

describe('CallerCache', () => {
  it('looks a key up once and answers from memory until revoked', async () => {
    const cache = new CallerCache<ReturnType<typeof caller>>();
    let lookups = 0;
    const load = async () => {
      lookups++;
      return caller('key-1');
    };
    expect(await cache.getOrLoad('hash-1', load)).toEqual(caller('key-1'));
    expect(await cache.getOrLoad('hash-1', load)).toEqual(caller('key-1'));
    expect(lookups).toBe(1);
    cache.revoke('hash-1');
    await cache.getOrLoad('hash-1', load);
    expect(lookups).toBe(2);
  });

  it('never keeps an unknown key, so a key created elsewhere works at once', async () => {
    const cache = new CallerCache<ReturnType<typeof caller>>();
    expect(await cache.getOrLoad('hash-1', async () => null)).toBeNull();
    expect(await cache.getOrLoad('hash-1', async () => caller('key-1'))).toEqual(caller('key-1'));
  });

  it('does not keep a lookup that was under way when a key was revoked', async () => {
    const cache = new CallerCache<ReturnType<typeof caller>>();
    const raced = pendingLookup();
    const answer = cache.getOrLoad('hash-1', raced.load);
    cache.revoke('hash-1');
    raced.finish(caller('key-1'));
    await answer;
    // The lookup may have read the key before the revocation was written: the next request must ask again.
    expect(await cache.getOrLoad('hash-1', async () => null)).toBeNull();
  });

  it('forgets every key of an account that changed, and nothing of other accounts', async () => {
    const cache = new CallerCache<ReturnType<typeof caller>>();
    const other = { keyId: 'key-3', account: { id: 'other', name: 'Other' } };
    await cache.getOrLoad('hash-1', async () => caller('key-1'));
    await cache.getOrLoad('hash-2', async () => caller('key-2'));
    await cache.getOrLoad('hash-3', async () => other);
    cache.forgetAccount('acc');
    const renamed = { keyId: 'key-1', account: { id: 'acc', name: 'Renamed' } };
    expect(await cache.getOrLoad('hash-1', async () => renamed)).toEqual(renamed);
    expect(await cache.getOrLoad('hash-2', async () => null)).toBeNull();
    expect(await cache.getOrLoad('hash-3', async () => null)).toEqual(other);
  });

  it('asks the database again once the time to live has passed', async () => {
    const cache = new CallerCache<ReturnType<typeof caller>>(20);
    await cache.getOrLoad('hash-1', async () => caller('key-1'));
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.getOrLoad('hash-1', async () => null)).toBeNull();
  });
});
