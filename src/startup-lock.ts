import pg from 'pg';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { ADVISORY_LOCKS, advisoryLock, advisoryUnlock, tryAdvisoryLock } from './repositories/advisory-locks.js';

/**
 * Runs a process's schema work at start (migrations, the job store's set-up, the key check) one process at a time
 * on a PostgreSQL database: replicas started together would otherwise create the same tables, types and triggers
 * at once and fail. The lock is held on a connection of its own for the set-up only, then released. SQLite needs
 * none: it is one host's file, and its writes already take the database's lock.
 */
export async function underStartupLock<T>(database: Config['database'], logger: Logger | undefined, work: () => Promise<T>): Promise<T> {
  if (database.type !== 'postgres') return work();
  const client = new pg.Client({ connectionString: database.url });
  // A connection lost meanwhile loses the lock; the work goes on (and fails by itself if the database is gone).
  client.on('error', () => undefined);
  await client.connect();
  try {
    if (!(await tryAdvisoryLock(client, ADVISORY_LOCKS.startUp))) {
      logger?.info('waiting for another process to finish setting up the database');
      await advisoryLock(client, ADVISORY_LOCKS.startUp);
    }
    return await work();
  } finally {
    await advisoryUnlock(client, ADVISORY_LOCKS.startUp).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
