import type { EntityManager } from 'typeorm';

/** Rows per upsert statement: 5 parameters each, far below SQLite's and PostgreSQL's limits. */
const UPSERT_CHUNK = 200;

/** One ledger row to add: month, user key, base id, purpose, calls. */
export type ApiCallRow = unknown[];

/** Adds each row's calls to the stored row of its key (month, user, base, purpose), creating it when missing. */
export async function addApiCalls(manager: EntityManager, rows: ApiCallRow[]): Promise<void> {
  const postgres = manager.connection.options.type === 'postgres';
  for (let start = 0; start < rows.length; start += UPSERT_CHUNK) {
    const chunk = rows.slice(start, start + UPSERT_CHUNK);
    await manager.query(upsertSql(chunk.length, postgres), chunk.flat());
  }
}

/** Adds to an existing row's calls; `excluded` is the row proposed (the same on SQLite and PostgreSQL). */
function upsertSql(rows: number, postgres: boolean): string {
  let parameter = 0;
  const next = () => (postgres ? `$${++parameter}` : '?');
  const values = Array.from({ length: rows }, () => `(${[next(), next(), next(), next(), next()].join(', ')})`).join(', ');
  return (
    `INSERT INTO upstream_api_call (month, user_key, base_id, purpose, calls) VALUES ${values} ` +
    'ON CONFLICT (month, user_key, base_id, purpose) DO UPDATE SET calls = upstream_api_call.calls + excluded.calls'
  );
}
