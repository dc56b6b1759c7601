import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';

/** PostgreSQL and Redis on this machine's usual ports, as the replica tests use them (TEST_POSTGRES_URL, TEST_REDIS_URL). */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function adminQuery(sql: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2_000 });
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

async function redisAnswers(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export interface SharedServices {
  databaseUrl: string;
  redisPrefix: string;
  drop(): Promise<void>;
}

/** A fresh database and Redis key prefix for one bench run; undefined when either server does not answer. */
export async function sharedServices(name: string): Promise<SharedServices | undefined> {
  if (!(await adminQuery('SELECT 1')) || !(await redisAnswers())) return undefined;
  const database = `basewatch_bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${database}`);
  const redisPrefix = `basewatch-bench:${name}:${randomBytes(4).toString('hex')}:`;
  return {
    databaseUrl: Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${database}` }).toString(),
    redisPrefix,
    drop: async () => {
      await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      const redis = new Redis(REDIS_URL);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      redis.disconnect();
    },
  };
}
