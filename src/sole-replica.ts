import pg from 'pg';

/** Any fixed number: the advisory lock every basewatch replica without Redis takes on its database. */
const SOLE_REPLICA_LOCK = 7_316_052_118;

export class SecondReplicaError extends Error {
  constructor() {
    super(
      'Another basewatch process already runs on this PostgreSQL database without Redis. Replicas share their upstream ' +
        'limits, request budgets and subscription events through Redis: set REDIS_URL (the same on every replica), ' +
        'or stop the other process. See README, "Running several replicas".',
    );
    this.name = 'SecondReplicaError';
  }
}

export interface SoleReplicaClaim {
  release(): Promise<void>;
}

/**
 * Without Redis each process keeps limits and events in its own memory, which is right only while it is the one
 * process on the database. It holds a session-level advisory lock for its whole life, on a connection of its own:
 * a second process finds it taken and refuses to start; the lock goes with the process, however it ends.
 */
export async function claimSoleReplica(databaseUrl: string): Promise<SoleReplicaClaim> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [SOLE_REPLICA_LOCK]);
    if (!rows[0]?.locked) throw new SecondReplicaError();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  // A lost connection loses the lock; the error must not crash the process, which then runs as before.
  client.on('error', () => undefined);
  return { release: () => client.end().catch(() => undefined) };
}
