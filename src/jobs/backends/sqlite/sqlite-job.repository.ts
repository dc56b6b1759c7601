import {
  computeJobState,
  type JobId,
  type JobParameters,
  type JobRepository,
  type JobRepositoryOptions,
  type JobsOverview,
  type JobsQueryOptions,
  type JobsResult,
  type JobState,
  type RemoveJobsOptions,
} from 'agenda';
import type { DataSource } from 'typeorm';
import { orderBy, queryFilter, selectorFilter, stateExpression } from './job-filters.js';
import { stateValues, toJob, type JobRow } from './job-row.js';
import { saveJob } from './job-save.js';
import { sqliteHandle, type SqliteDatabase } from '../../../repositories/sqlite-handle.js';
import { and, iso, quotedTable, type Sql } from './sql-parts.js';

/**
 * Agenda's job storage in a table of the service's own SQLite database (created by a migration). Every lock is
 * taken by one `UPDATE … RETURNING` statement: SQLite runs a writing statement under its database-wide write lock,
 * so the candidate it selects cannot be locked by another connection or process in between.
 */
export class SqliteJobRepository implements JobRepository {
  readonly tableName: string;
  private readonly dataSource: DataSource;
  private readonly table: string;

  constructor(options: { dataSource: DataSource; tableName?: string }) {
    this.dataSource = options.dataSource;
    this.tableName = options.tableName ?? 'agenda_job';
    this.table = quotedTable(this.tableName);
  }

  private get db(): SqliteDatabase {
    return sqliteHandle(this.dataSource);
  }

  async connect(): Promise<void> {
    const found = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(this.tableName);
    if (!found) throw new Error(`table ${this.tableName} is missing: run the database migrations first`);
  }

  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const now = new Date();
    const { state, skip = 0, limit = 0 } = options;
    const filters: Sql[] = [queryFilter(options)];
    if (state === 'paused') filters.push({ sql: 'disabled = 1', params: [] });
    else if (state) filters.push(equals(stateExpression(now), state));
    const where = and(filters);
    const rows = this.db
      .prepare(`SELECT * FROM ${this.table} WHERE ${where.sql} ORDER BY ${orderBy(options.sort)} LIMIT ? OFFSET ?`)
      .all(...where.params, limit > 0 ? limit : -1, Math.max(skip, 0)) as JobRow[];
    const total = this.db.prepare(`SELECT COUNT(*) AS n FROM ${this.table} WHERE ${where.sql}`).get(...where.params) as {
      n: number;
    };
    const jobs = rows.map((row) => {
      const job = toJob(row);
      return { ...job, _id: job._id!, state: computeJobState(job, now) };
    });
    return { jobs, total: total.n };
  }

  async getJobsOverview(): Promise<JobsOverview[]> {
    const state = stateExpression(new Date());
    const counts = this.db
      .prepare(
        `SELECT name, ${state.sql} AS state, COUNT(*) AS n, SUM(disabled) AS paused
         FROM ${this.table} GROUP BY name, state ORDER BY name`,
      )
      .all(...state.params) as Array<{ name: string; state: JobState; n: number; paused: number }>;
    const overviews = new Map<string, JobsOverview>();
    for (const { name, state: jobState, n, paused } of counts) {
      const overview = overviews.get(name) ?? emptyOverview(name);
      overview.total += n;
      overview[jobState] += n;
      // As in the MongoDB backend, a disabled job counts as paused on top of its computed state.
      overview.paused += paused;
      overviews.set(name, overview);
    }
    return [...overviews.values()];
  }

  async getDistinctJobNames(): Promise<string[]> {
    return this.db.prepare(`SELECT DISTINCT name FROM ${this.table} ORDER BY name`).pluck().all() as string[];
  }

  async getJobById(id: string): Promise<JobParameters | null> {
    const row = this.db.prepare(`SELECT * FROM ${this.table} WHERE id = ?`).get(String(id)) as JobRow | undefined;
    return row ? toJob(row) : null;
  }

  async getQueueSize(): Promise<number> {
    return this.db.prepare(`SELECT COUNT(*) FROM ${this.table} WHERE next_run_at < ?`).pluck().get(new Date().toISOString()) as number;
  }

  async removeJobs(options: RemoveJobsOptions): Promise<number> {
    const filter = selectorFilter(options);
    if (!filter) return 0;
    return this.db.prepare(`DELETE FROM ${this.table} WHERE ${filter.sql}`).run(...filter.params).changes;
  }

  async disableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setDisabled(options, true);
  }

  async enableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setDisabled(options, false);
  }

  /** Counts the jobs whose flag actually changed. */
  private setDisabled(options: RemoveJobsOptions, disabled: boolean): number {
    const filter = selectorFilter(options);
    if (!filter) return 0;
    const flag = disabled ? 1 : 0;
    return this.db
      .prepare(`UPDATE ${this.table} SET disabled = ? WHERE (${filter.sql}) AND disabled <> ?`)
      .run(flag, ...filter.params, flag).changes;
  }

  async purgeAllJobs(): Promise<number> {
    return this.db.prepare(`DELETE FROM ${this.table}`).run().changes;
  }

  async saveJob<DATA = unknown>(job: JobParameters<DATA>, options: JobRepositoryOptions | undefined): Promise<JobParameters<DATA>> {
    return saveJob(this.db, this.table, job as JobParameters, options) as JobParameters<DATA>;
  }

  async saveJobState(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<void> {
    if (!job._id) throw new Error('Cannot save job state without job ID');
    const { changes } = this.db
      .prepare(
        `UPDATE ${this.table} SET locked_at = ?, next_run_at = ?, last_run_at = ?, progress = ?, fail_reason = ?,
         fail_count = ?, failed_at = ?, last_finished_at = ?, last_modified_by = ? WHERE id = ? AND name = ?`,
      )
      .run(...stateValues(job), options?.lastModifiedBy ?? null, String(job._id), job.name);
    if (changes !== 1) {
      throw new Error(`job ${job._id} (name: ${job.name}) cannot be updated in the database, maybe it does not exist anymore?`);
    }
  }

  async lockJob(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    if (!job._id) return undefined;
    const row = this.db
      .prepare(
        `UPDATE ${this.table} SET locked_at = ?, last_modified_by = ?
         WHERE id = ? AND name = ? AND locked_at IS NULL AND next_run_at IS ? AND disabled = 0 RETURNING *`,
      )
      .get(new Date().toISOString(), options?.lastModifiedBy ?? null, String(job._id), job.name, iso(job.nextRunAt)) as JobRow | undefined;
    return row ? toJob(row) : undefined;
  }

  /** Leaves alone a one-time job that has started (its next run is cleared): its run still holds the lock. */
  async unlockJob(job: JobParameters): Promise<void> {
    if (!job._id) return;
    this.db.prepare(`UPDATE ${this.table} SET locked_at = NULL WHERE id = ? AND next_run_at IS NOT NULL`).run(String(job._id));
  }

  async unlockJobs(jobIds: (JobId | string)[]): Promise<void> {
    if (jobIds.length === 0) return;
    this.db
      .prepare(`UPDATE ${this.table} SET locked_at = NULL WHERE id IN (SELECT value FROM json_each(?))`)
      .run(JSON.stringify(jobIds.map(String)));
  }

  /**
   * Finds and locks the next due job of a name: unlocked and due by `nextScanAt`, or locked before `lockDeadline`
   * (its worker is presumed dead); earliest first, then highest priority. The scalar subquery is evaluated once,
   * inside the same statement and write lock as the update.
   */
  async getNextJobToRun(
    jobName: string,
    nextScanAt: Date,
    lockDeadline: Date,
    now: Date | undefined,
    options: JobRepositoryOptions | undefined,
  ): Promise<JobParameters | undefined> {
    const row = this.db
      .prepare(
        `UPDATE ${this.table} SET locked_at = ?, last_modified_by = ?
         WHERE id = (
           SELECT id FROM ${this.table}
           WHERE name = ? AND disabled = 0
             AND ((locked_at IS NULL AND next_run_at <= ?) OR locked_at <= ?)
           ORDER BY next_run_at, priority DESC
           LIMIT 1)
         RETURNING *`,
      )
      .get(
        (now ?? new Date()).toISOString(),
        options?.lastModifiedBy ?? null,
        jobName,
        nextScanAt.toISOString(),
        lockDeadline.toISOString(),
      ) as JobRow | undefined;
    return row ? toJob(row) : undefined;
  }
}

function equals(expression: Sql, value: string): Sql {
  return { sql: `(${expression.sql}) = ?`, params: [...expression.params, value] };
}

function emptyOverview(name: string): JobsOverview {
  return { name, total: 0, running: 0, scheduled: 0, queued: 0, completed: 0, failed: 0, repeating: 0, paused: 0 };
}
