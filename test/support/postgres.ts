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
    drop: async () => {
      // A pool's end() resolves once it has asked its clients to close, before their sessions have ended: FORCE would
      // then end one under a client that is still closing, which reports it as an unhandled error.
      for (let waited = 0; waited < 3_000 && (await sessionsOn(name)) > 0; waited += 50) await sleep(50);
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sessions connected to a database (0 when the server does not answer). */
async function sessionsOn(name: string): Promise<number> {
  const rows = await query<{ n: string }>(ADMIN_URL, 'SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = $1', [name]).catch(() => [
    { n: '0' },
  ]);
  return Number(rows[0]?.n ?? 0);
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
