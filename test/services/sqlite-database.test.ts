import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/database.js';

const dir = mkdtempSync(join(tmpdir(), 'basewatch-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the service’s SQLite database', () => {
  it('is opened in WAL with synchronous=NORMAL and its file mapped (up to better-sqlite3’s 2 GB limit)', async () => {
    const dataSource = await openDatabase({ type: 'sqlite', path: join(dir, 'service.sqlite') });
    try {
      const pragma = async (name: string) => Object.values(((await dataSource.query(`PRAGMA ${name}`)) as object[])[0]!)[0];
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(1);
      expect(await pragma('mmap_size')).toBe(0x7fff0000);
    } finally {
      await dataSource.destroy();
    }
  });

  it('runs concurrent transactions one after the other: one rolled back leaves the other’s writes; one inside another nests', async () => {
    const dataSource = await openDatabase({ type: 'sqlite', path: join(dir, 'transactions.sqlite') });
    try {
      await dataSource.query('CREATE TABLE t (v TEXT)');
      const later = () => new Promise((resolve) => setTimeout(resolve, 5));
      const kept = dataSource.transaction(async (manager) => {
        await manager.query("INSERT INTO t VALUES ('kept')");
        await later();
        // Through the DataSource, not this callback's manager: a savepoint inside this transaction.
        await dataSource.transaction((inner) => inner.query("INSERT INTO t VALUES ('nested')"));
        await later();
      });
      const failed = dataSource.transaction(async (manager) => {
        await later();
        await manager.query("INSERT INTO t VALUES ('rolled back')");
        throw new Error('this one fails');
      });
      const [first, second] = await Promise.allSettled([kept, failed]);
      expect(first.status).toBe('fulfilled');
      expect(second).toMatchObject({ status: 'rejected', reason: { message: 'this one fails' } });
      expect(await dataSource.query('SELECT v FROM t ORDER BY v')).toEqual([{ v: 'kept' }, { v: 'nested' }]);
    } finally {
      await dataSource.destroy();
    }
  });
});
