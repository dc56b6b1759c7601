import { randomBytes } from 'node:crypto';
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

/** A database of the test's own (its URL, and `drop`, which also ends any connection left to it). */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `basewatch_test_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  return {
    url: Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString(),
    drop: async () => void (await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/** Runs one statement on the database at `url`, on a connection of its own. */
export async function query<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
