import { describe, expect, it } from 'vitest';
import { foldLast, foldVersions, foldVersionsToJson, type StoredVersion } from '../../src/services/mirror/record-state.js';

const version = (seq: number, full: boolean, fields: Record<string, unknown>, eventType = 'record_update'): StoredVersion => ({
  seq,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
  eventType,
  source: 'client',
  userEmail: null,
  full,
  fields,
});

describe('folding a record’s versions', () => {
  const versions = [
    version(1, false, { fA: 'before the whole one: skipped' }),
    version(2, true, { fA: 'a', fB: ['x'], fC: 1 }, 'record_create'),
    version(3, false, { fA: 'b', fB: [] }),
    version(4, false, { fD: true }),
    version(5, true, { fA: 'c', fC: 2 }),
    version(6, false, { fC: null, fE: 'e' }),
  ];

  it('gives each version the whole record after it, from the first whole version on', () => {
    expect(foldVersions(versions).map(({ seq, state }) => ({ seq, state }))).toEqual([
      { seq: 2, state: { fA: 'a', fB: ['x'], fC: 1 } },
      { seq: 3, state: { fA: 'b', fC: 1 } },
      { seq: 4, state: { fA: 'b', fC: 1, fD: true } },
      { seq: 5, state: { fA: 'c', fC: 2 } },
      { seq: 6, state: { fA: 'c', fE: 'e' } },
    ]);
  });

  it('folds to the same last version alone, a deletion keeping the values before it, and leaves its input as it was', () => {
    const before = structuredClone(versions);
    expect(foldLast(versions)).toEqual(foldVersions(versions).at(-1));
    const deleted = [...versions, version(7, false, {}, 'record_delete')];
    expect(foldLast(deleted)).toMatchObject({ seq: 7, eventType: 'record_delete', state: { fA: 'c', fE: 'e' } });
    expect(foldLast(deleted)).toEqual(foldVersions(deleted).at(-1));
    expect(versions).toEqual(before);
  });

  it('gives the same states as JSON text, keys in the same order, a deletion keeping the values before it', () => {
    const deleted = [...versions, version(7, false, {}, 'record_delete'), version(8, false, { fA: 'd', fC: 3 })];
    const rendered = foldVersionsToJson(deleted);
    expect(rendered.map(({ seq, stateJson }) => ({ seq, stateJson }))).toEqual(
      foldVersions(deleted).map(({ seq, state }) => ({ seq, stateJson: JSON.stringify(state) })),
    );
    expect(rendered.at(-1)!.stateJson).toBe('{"fA":"d","fE":"e","fC":3}');
  });

  it('has nothing to fold without a whole version', () => {
    expect(foldVersionsToJson(versions.slice(0, 1))).toEqual([]);
    expect(foldVersions(versions.slice(0, 1))).toEqual([]);
    expect(foldLast(versions.slice(0, 1))).toBeUndefined();
  });
});
