import type { DataSource, EntityManager } from 'typeorm';

type Runner = DataSource | EntityManager;

/**
 * Runs SQL with `:name` and `:...list` parameters on either database (TypeORM turns them into `?` or `$n`). The
 * delivery hot path uses it instead of the query builder, whose per-query overhead dominated the CPU profile.
 */
export function runSql<T = unknown>(runner: Runner, sql: string, parameters: Record<string, unknown> = {}): Promise<T> {
  const driver = 'connection' in runner ? runner.connection.driver : runner.driver;
  const [query, values] = driver.escapeQueryWithParameters(sql, parameters);
  return runner.query(query, values) as Promise<T>;
}

/**
 * One multi-row INSERT per chunk. TypeORM sends a statement per row on SQLite when a generated key is left out.
 * Rows carry column names and values as stored (timestamps as ISO strings).
 */
export async function insertRows(manager: EntityManager, table: string, rows: Array<Record<string, unknown>>, chunk = 200): Promise<void> {
  for (let start = 0; start < rows.length; start += chunk) {
    const slice = rows.slice(start, start + chunk);
    const columns = Object.keys(slice[0]!);
    const parameters: Record<string, unknown> = {};
    const tuples = slice.map((row, r) => {
      const names = columns.map((column, c) => {
        parameters[`v${r}_${c}`] = row[column] ?? null;
        return `:v${r}_${c}`;
      });
      return `(${names.join(', ')})`;
    });
    await runSql(manager, `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, parameters);
  }
}
