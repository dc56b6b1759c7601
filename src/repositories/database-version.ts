import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';
import { sqliteHandle } from './sqlite-handle.js';

/**
 * A token that differs whenever anything in the database may have changed since it was last read, or null when the
 * current state cannot be named (a transaction is open: what it wrote may still be rolled back).
 */
export type DatabaseVersion = () => string | null;

/**
 * On the embedded SQLite database: rows changed through this process's connection (`total_changes()`, which every
 * write of the service and its SQLite job store goes through) and commits by any other connection (`data_version`:
 * the CLI, a second process). Null on PostgreSQL, where no such counter exists and other processes write unseen.
 */
export function databaseVersionOf(dataSource: DataSource): DatabaseVersion | null {
  if (dataSource.options.type !== 'better-sqlite3') return null;
  let statement: BetterSqlite3.Statement<[], [number, number]> | undefined;
  let preparedOn: BetterSqlite3.Database | undefined;
  return () => {
    const db = sqliteHandle(dataSource);
    if (db.inTransaction) return null;
    if (preparedOn !== db) {
      statement = db.prepare<[], [number, number]>('SELECT total_changes(), data_version FROM pragma_data_version').raw();
      preparedOn = db;
    }
    const [changes, dataVersion] = statement!.get()!;
    return `${dataVersion}.${changes}`;
  };
}
