import { describe, expect, it } from 'vitest';
import { upstreamNotConnected } from '../../src/errors.js';
import { VisibleBases } from '../../src/services/connections/visible-bases.js';

/** A lister that answers what the test sets, counting its calls. */
function lister() {
  const state = { calls: 0, answer: (): Promise<string[]> => Promise.resolve(['appA']) };
  const list = () => {
    state.calls += 1;
    return state.answer();
  };
  return { state, list };
}

describe(VisibleBases.name, () => {
  it('reads a connection’s list once for any number of concurrent checks, and keeps it', async () => {
    const { state, list } = lister();
    const cache = new VisibleBases();
    const listings = await Promise.all(Array.from({ length: 20 }, () => cache.get('acc usr1', list)));
    expect(state.calls).toBe(1);
    expect(listings.every((listing) => listing.kind === 'listed' && listing.bases.has('appA'))).toBe(true);
    await cache.get('acc usr1', list);
    expect(state.calls).toBe(1);
    // Another connection of the same account is another list.
    await cache.get('acc usr2', list);
    expect(state.calls).toBe(2);
  });

  it('keeps the last list when a fresh read fails, and tells a refused connection from an upstream failure', async () => {
    const { state, list } = lister();
    const cache = new VisibleBases();
    await cache.get('acc usr1', list);
    state.answer = () => Promise.reject(new Error('socket hang up'));
    expect(await cache.get('acc usr1', list, true)).toEqual({ kind: 'listed', bases: new Set(['appA']) });
    expect(await cache.get('acc usr3', list)).toEqual({ kind: 'unknown' });
    state.answer = () => Promise.reject(upstreamNotConnected());
    expect(await cache.get('acc usr4', list)).toEqual({ kind: 'refused' });
  });

  it('serves the checks that follow a list read for another reason', async () => {
    const { state, list } = lister();
    const cache = new VisibleBases();
    cache.remember('acc usr1', ['appB']);
    expect(await cache.get('acc usr1', list)).toEqual({ kind: 'listed', bases: new Set(['appB']) });
    expect(state.calls).toBe(0);
  });
});
