import { randomBytes } from 'node:crypto';
import { ADMIN_URL, admin } from '../../test/support/postgres.js';
import { dropKeys, redisAvailable, TEST_REDIS_URL } from '../../test/support/redis.js';

/** PostgreSQL and Redis on this machine's usual ports, as the replica tests use them (TEST_POSTGRES_URL, TEST_REDIS_URL). */
export const REDIS_URL = TEST_REDIS_URL;

export interface SharedServices {
  databaseUrl: string;
  redisPrefix: string;
  drop(): Promise<void>;
}

/** A fresh database and Redis key prefix for one bench run; undefined when either server does not answer. */
export async function sharedServices(name: string): Promise<SharedServices | undefined> {
  if (!(await admin('SELECT 1')) || !(await redisAvailable())) return undefined;
  const database = `basewatch_bench_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${database}`);
  const redisPrefix = `basewatch-bench:${name}:${randomBytes(4).toString('hex')}:`;
  return {
    databaseUrl: Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString(),
    redisPrefix,
    drop: async () => {
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await dropKeys(redisPrefix);
    },
  };
}
