import { describe, expect, it } from 'vitest';
import { stackPerTable } from '../../web/src/usage/stack.js';

const table = (tableId: string, recordCount: number, storageBytes = 0) => ({
  tableId,
  tableName: `T ${tableId}`,
  recordCount,
  storageBytes,
});

describe('the usage chart’s stacking per table', () => {
  it('draws each table at the running sum of those under it, a table missing on a day counting 0', () => {
    const days = [
      { tables: [table('a', 3, 10), table('b', 5)] },
      { tables: [table('a', 4, 20)] },
      { tables: [table('b', 1), table('c', 2)] },
    ];
    expect(stackPerTable(days, 'recordCount')).toEqual({
      tables: [
        ['a', 'T a'],
        ['b', 'T b'],
        ['c', 'T c'],
      ],
      stacked: [
        [3, 4, 0],
        [8, 4, 1],
        [8, 4, 3],
      ],
    });
    expect(stackPerTable(days, 'storageBytes').stacked).toEqual([
      [10, 20, 0],
      [10, 20, 0],
      [10, 20, 0],
    ]);
    expect(stackPerTable([], 'recordCount')).toEqual({ tables: [], stacked: [] });
  });
});
