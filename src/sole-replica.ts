import pg from 'pg';
import { ADVISORY_LOCKS, advisoryUnlock, tryAdvisoryLock } from './repositories/advisory-locks.js';

const SEE_README = 'See README, "Running several replicas".';

export class SecondReplicaError extends Error {
  constructor() {
    super(
      'Another basewatch process already runs on this PostgreSQL database without Redis. Replicas share their upstream ' +
        'limits, request budgets and subscription events through Redis: set REDIS_URL (the same on every replica), ' +
        `or stop the other process. ${SEE_README}`,
    );
    this.name = 'SecondReplicaError';
  }
}

export class MixedModesError extends Error {
  /** `withRedis`: the refused process has REDIS_URL (and one without it runs). */
  constructor(withRedis: boolean) {
    const situation = withRedis
      ? 'A basewatch process without REDIS_URL runs on this PostgreSQL database, keeping upstream limits, request ' +
        'budgets and subscription events in its own memory: stop it, or start it with REDIS_URL like this one.'
      : 'basewatch processes with REDIS_URL run on this PostgreSQL database: one without it would keep upstream ' +
        'limits, request budgets and subscription events to itself. Set REDIS_URL the same as theirs.';
    super(`${situation} ${SEE_README}`);
    this.name = 'MixedModesError';
  }
}

export interface ReplicaModeClaim {
  release(): Promise<void>;
}

/**
 * Without Redis each process keeps limits and events in its own memory, which is right only while it is the one
 * process on the database; with Redis, any number share them. Each process holds the replica-mode advisory lock for
 * its whole life on a connection of its own: exclusively without Redis, shared with Redis. PostgreSQL grants a
 * shared lock beside shared ones only, so a process that would mix modes (or a second one without Redis) finds it
 * taken and refuses to start, whichever started first; the lock goes with the process, however it ends.
 */
export async function claimReplicaMode(databaseUrl: string, withRedis: boolean): Promise<ReplicaModeClaim> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { replicaMode } = ADVISORY_LOCKS;
    if (withRedis) {
      if (!(await tryAdvisoryLock(client, replicaMode, 'shared'))) throw new MixedModesError(true);
    } else if (!(await tryAdvisoryLock(client, replicaMode))) {
      // Held: shared by Redis replicas (a shared lock is then granted, and given back), or by one without Redis.
      if (!(await tryAdvisoryLock(client, replicaMode, 'shared'))) throw new SecondReplicaError();
      await advisoryUnlock(client, replicaMode, 'shared');
      throw new MixedModesError(false);
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  // A lost connection loses the lock; the error must not crash the process, which then runs as before.
  client.on('error', () => undefined);
  return { release: () => client.end().catch(() => undefined) };
}
