import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';

export type SqliteDatabase = BetterSqlite3.Database;

/**
 * The better-sqlite3 connection under a TypeORM DataSource. Read on every call rather than kept, so a DataSource
 * that is destroyed and initialised again is followed. The synchronous handle is used instead of
 * `dataSource.query()` because it reports changed-row counts and runs a read-then-write as one uninterruptible
 * `BEGIN IMMEDIATE` transaction.
 */
export function sqliteHandle(dataSource: DataSource): SqliteDatabase {
  if (dataSource.options.type !== 'better-sqlite3') {
    throw new Error(`the SQLite handle needs a better-sqlite3 DataSource, not ${dataSource.options.type}`);
  }
  const handle = (dataSource.driver as unknown as { databaseConnection?: SqliteDatabase }).databaseConnection;
  if (!dataSource.isInitialized || !handle?.open) {
    throw new Error('the SQLite handle needs an initialised DataSource');
  }
  return handle;
}
