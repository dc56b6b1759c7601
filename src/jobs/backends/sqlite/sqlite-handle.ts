import type BetterSqlite3 from 'better-sqlite3';
import type { DataSource } from 'typeorm';

export type SqliteDatabase = BetterSqlite3.Database;
export type SqlValue = string | number | bigint | null;

/** A piece of SQL with its `?` parameters in order. */
export interface Sql {
  sql: string;
  params: SqlValue[];
}

/**
 * The better-sqlite3 connection under a TypeORM DataSource. Read on every call rather than kept, so a DataSource
 * that is destroyed and initialised again is followed. The synchronous handle is used instead of
 * `dataSource.query()` because it reports changed-row counts and runs a read-then-write as one uninterruptible
 * `BEGIN IMMEDIATE` transaction.
 */
export function sqliteHandle(dataSource: DataSource): SqliteDatabase {
  if (dataSource.options.type !== 'better-sqlite3') {
    throw new Error(`the SQLite job backend needs a better-sqlite3 DataSource, not ${dataSource.options.type}`);
  }
  const handle = (dataSource.driver as unknown as { databaseConnection?: SqliteDatabase }).databaseConnection;
  if (!dataSource.isInitialized || !handle?.open) {
    throw new Error('the SQLite job backend needs an initialised DataSource');
  }
  return handle;
}

/** Table names are spliced into SQL, so only plain identifiers are accepted. */
export function quotedTable(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new Error(`invalid table name: ${name}`);
  }
  return `"${name}"`;
}

export function and(parts: Sql[]): Sql {
  return {
    sql: parts.length === 0 ? '1 = 1' : parts.map((part) => `(${part.sql})`).join(' AND '),
    params: parts.flatMap((part) => part.params),
  };
}

export function iso(value: Date | string | number | null | undefined): string | null {
  return value === null || value === undefined ? null : new Date(value).toISOString();
}
