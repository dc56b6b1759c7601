import type { AgendaBackend, JobParameters, JobRepositoryOptions } from 'agenda';
import { PostgresJobLogger, PostgresJobRepository, PostgresNotificationChannel } from '@agendajs/postgres-backend';
import { isUniqueViolation } from '../../../repositories/db-errors.js';
import { ensureUniqueJobIndexes, type UniqueJob } from './unique-job-indexes.js';

const TABLE = 'agenda_jobs';
const LOG_TABLE = 'agenda_logs';
/** Enough for a save to find the row another process inserted, even if it was removed and inserted again meanwhile. */
const SAVE_ATTEMPTS = 3;

/**
 * Agenda's table, columns, indexes, trigger and log table as @agendajs/postgres-backend makes them, then one unique
 * index per unique job. For one process at a time (startup-lock.ts): the package re-creates its function and trigger
 * every time, which fails (`tuple concurrently updated`) when two processes do it at once (STACK.md trap 16).
 */
export async function setUpPostgresJobStore(connectionString: string, uniqueJobs: readonly UniqueJob[]): Promise<void> {
  const repository = new PostgresJobRepository({ connectionString, tableName: TABLE });
  try {
    await repository.connect();
    const pool = repository.getPool();
    await new PostgresJobLogger({ tableName: LOG_TABLE }).setPool(pool);
    const client = await pool.connect();
    try {
      await ensureUniqueJobIndexes(client, TABLE, uniqueJobs);
    } finally {
      client.release();
    }
  } finally {
    await repository.disconnect();
  }
}

/** The package's repository, with a unique job's save made again when it lost the race to insert it. */
class UniqueSavingJobRepository extends PostgresJobRepository {
  override async saveJob<DATA = unknown>(
    job: JobParameters<DATA>,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters<DATA>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await super.saveJob(job, options);
      } catch (error) {
        // The other process's row is committed: the next attempt finds it and updates it instead.
        if (!job.unique || job._id || !isUniqueViolation(error) || attempt >= SAVE_ATTEMPTS) throw error;
      }
    }
  }
}

/**
 * @agendajs/postgres-backend's PostgresBackend, put together the same way (one pool shared by the jobs, the
 * LISTEN/NOTIFY channel and the job log) but on a schema made beforehand (setUpPostgresJobStore), with unique saves
 * that hold under concurrency, and a connect made once: Agenda's constructor connects again without catching a
 * failure (STACK.md trap 6), so the service connects first, where a failure stops the start with its message.
 */
export class PostgresJobBackend implements AgendaBackend {
  readonly name = 'PostgreSQL';
  readonly ownsConnection = true;
  readonly repository: PostgresJobRepository;
  readonly notificationChannel = new PostgresNotificationChannel({ reconnect: { enabled: true } });
  readonly logger = new PostgresJobLogger({ tableName: LOG_TABLE, ensureSchema: false });
  private connected: Promise<void> | undefined;

  constructor(connectionString: string) {
    this.repository = new UniqueSavingJobRepository({ connectionString, tableName: TABLE, ensureSchema: false });
  }

  connect(): Promise<void> {
    this.connected ??= (async () => {
      await this.repository.connect();
      this.notificationChannel.setPool(this.repository.getPool());
      await this.logger.setPool(this.repository.getPool());
    })();
    return this.connected;
  }

  async disconnect(): Promise<void> {
    this.connected = undefined;
    await this.repository.disconnect();
  }
}
