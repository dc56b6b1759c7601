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
});
