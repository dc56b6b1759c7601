import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import { sqliteHandle } from './sqlite-handle.js';

/** A statement in the driver's placeholder syntax with its positional parameters. */
export interface Sql {
  text: string;
  params: unknown[];
}

/** Runs a read and returns each row as an array of its columns, in the order they were selected. */
export type RawRowReader = (sql: Sql) => Promise<unknown[][]>;

/** Distinct statement texts kept prepared; a read path has a handful (one per mix of filters). */
const PREPARED_STATEMENTS = 200;

/**
 * Reads rows as arrays. On SQLite the statement is prepared once and run in better-sqlite3's raw mode: building a
 * keyed object per row costs more than the query itself on a page of fifty. Each statement is still announced to
 * TypeORM's logger and `beforeQuery` subscribers, as the DataSource's own queries are. Elsewhere (PostgreSQL) it goes
 * through the DataSource and each row's values are taken in column order.
 */
export function rawRowReader(dataSource: DataSource): RawRowReader {
  if (dataSource.options.type !== 'better-sqlite3') {
    return async ({ text, params }) => ((await dataSource.query(text, params)) as Array<Record<string, unknown>>).map(Object.values);
  }
  // Per connection: a DataSource destroyed and initialised again has a new one.
  const prepared = new WeakMap<BetterSqlite3.Database, LRUCache<string, BetterSqlite3.Statement<unknown[], unknown[]>>>();
  return async ({ text, params }) => {
    const runner = dataSource.createQueryRunner();
    dataSource.logger.logQuery(text, params, runner);
    await runner.broadcaster.broadcast('BeforeQuery', text, params);
    const db = sqliteHandle(dataSource);
    let statements = prepared.get(db);
    if (!statements) {
      statements = new LRUCache({ max: PREPARED_STATEMENTS });
      prepared.set(db, statements);
    }
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare<unknown[], unknown[]>(text).raw(true);
      statements.set(text, statement);
    }
    return statement.all(...params);
  };
}
