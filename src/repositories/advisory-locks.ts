import type pg from 'pg';

/**
 * The session-level advisory locks basewatch takes on its PostgreSQL database, each named by a fixed number. A lock
 * belongs to the connection (session) that took it and goes with it, however the process ends.
 */
export const ADVISORY_LOCKS = {
  /** Held by one process at a time while it migrates the database and sets up the job store (startup-lock.ts). */
  startUp: 7_316_052_119,
  /**
   * Exclusive for a process without Redis, shared by each process with Redis (sole-replica.ts). The number is the
   * one earlier versions took (exclusively) without Redis, so they are refused beside Redis replicas, and the reverse.
   */
  replicaMode: 7_316_052_118,
} as const;

export type AdvisoryLock = (typeof ADVISORY_LOCKS)[keyof typeof ADVISORY_LOCKS];
type Mode = 'exclusive' | 'shared';

/** Takes the lock if nobody holds it in a conflicting mode; never waits. */
export async function tryAdvisoryLock(client: pg.Client, lock: AdvisoryLock, mode: Mode = 'exclusive'): Promise<boolean> {
  const fn = mode === 'shared' ? 'pg_try_advisory_lock_shared' : 'pg_try_advisory_lock';
  const { rows } = await client.query<{ locked: boolean }>(`SELECT ${fn}($1) AS locked`, [lock]);
  return rows[0]?.locked === true;
}

/** Waits for the lock (exclusive). */
export async function advisoryLock(client: pg.Client, lock: AdvisoryLock): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [lock]);
}

export async function advisoryUnlock(client: pg.Client, lock: AdvisoryLock, mode: Mode = 'exclusive'): Promise<void> {
  const fn = mode === 'shared' ? 'pg_advisory_unlock_shared' : 'pg_advisory_unlock';
  await client.query(`SELECT ${fn}($1)`, [lock]);
}
