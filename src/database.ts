import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../ormconfig.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { serialiseSqliteTransactions } from './sqlite-transactions.js';
import { underStartupLock } from './startup-lock.js';

export interface OpenDatabaseOptions {
  /** Told when the process waits for another one's set-up. */
  logger?: Logger;
  /** More set-up on the migrated database, under the same start-up lock (a failure closes the database). */
  setUp?: (dataSource: DataSource) => Promise<void>;
}

/** The most better-sqlite3's SQLite maps (its SQLITE_MAX_MMAP_SIZE); beyond it pages are read as before. */
const SQLITE_MMAP_BYTES = 0x7fff0000;

/** Opens the service's database and applies pending migrations: on PostgreSQL one process at a time. */
export async function openDatabase(database: Config['database'], options: OpenDatabaseOptions = {}): Promise<DataSource> {
  if (database.type === 'sqlite' && database.path !== ':memory:') {
    mkdirSync(dirname(database.path), { recursive: true });
  }
  return underStartupLock(database, options.logger, async () => {
    const dataSource = new DataSource(dataSourceOptions(database));
    await dataSource.initialize();
    try {
      if (database.type === 'sqlite') {
        await dataSource.query('PRAGMA synchronous = NORMAL');
        // A mirror's reads touch pages all over a file of gigabytes: mapped, a page costs no read() and no copy into
        // SQLite's own 16 MB cache. 13 % less CPU a record?at= over a 1.2 GB mirror (bench/results-mirror.txt, N3).
        await dataSource.query(`PRAGMA mmap_size = ${SQLITE_MMAP_BYTES}`);
        serialiseSqliteTransactions(dataSource);
      }
      await dataSource.runMigrations({ transaction: 'each' });
      await options.setUp?.(dataSource);
      return dataSource;
    } catch (error) {
      await dataSource.destroy().catch(() => undefined);
      throw error;
    }
  });
}
