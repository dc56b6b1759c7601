import pg from 'pg';

/** PostgreSQL runs on this machine's usual port; each test makes and drops a database of its own. */
export const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs one statement as the admin user; false when the server does not answer or refuses. */
export async function admin(sql: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query(sql);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
