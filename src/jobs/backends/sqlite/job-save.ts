import { randomUUID } from 'node:crypto';
import type { JobParameters, JobRepositoryOptions } from 'agenda';
import { definitionValues, processorValues, toJob, type ColumnValues, type JobRow } from './job-row.js';
import { uniqueFilter } from './json-match.js';
import type { SqliteDatabase } from '../../../repositories/sqlite-handle.js';
import { and, type Sql } from './sql-parts.js';

/**
 * `saveJob` with the MongoDB backend's rules: a job with an id is updated in place (or returned unchanged if it
 * is gone); a `single` job (from `every()`) is upserted by name, keeping an existing due time; a job with
 * `unique` is upserted by that query (`insertOnly` keeps what exists; debounce moves the due time); anything
 * else is inserted. The upserts read then write inside `BEGIN IMMEDIATE`, which takes SQLite's write lock first,
 * so two processes saving the same unique job cannot both insert it.
 */
export function saveJob(db: SqliteDatabase, table: string, job: JobParameters, options: JobRepositoryOptions | undefined): JobParameters {
  const now = new Date();
  const lastModifiedBy = options?.lastModifiedBy ?? null;
  if (job._id) {
    const row = update(db, table, { sql: 'id = ? AND name = ?', params: [String(job._id), job.name] }, values(job));
    return row ? toJob(row) : job;
  }
  const upsert = (match: Sql, inserted: ColumnValues, updated?: (existing: JobRow) => ColumnValues | null) =>
    db
      .transaction((): JobParameters => {
        const existing = db.prepare(`SELECT * FROM ${table} WHERE ${match.sql} ORDER BY rowid LIMIT 1`).get(...match.params) as
          | JobRow
          | undefined;
        if (!existing) return toJob(insert(db, table, inserted));
        const changes = updated ? updated(existing) : inserted;
        return toJob(changes ? update(db, table, { sql: 'id = ?', params: [existing.id] }, changes)! : existing);
      })
      .immediate();

  if (job.type === 'single') {
    // Declaring an `every()` again at start-up must not move a run that is already due.
    const protectDueTime = job.nextRunAt !== null && job.nextRunAt <= now;
    return upsert({ sql: "name = ? AND type = 'single'", params: [job.name] }, values(job), () => {
      const changes = values(job);
      if (protectDueTime) delete changes.next_run_at;
      return changes;
    });
  }
  if (job.unique) {
    const match = and([{ sql: 'name = ?', params: [job.name] }, uniqueFilter(job.unique)]);
    const debounce = job.uniqueOpts?.debounce;
    if (!debounce) {
      return upsert(match, values(job), job.uniqueOpts?.insertOnly ? () => null : undefined);
    }
    const firstDue = debounce.strategy === 'leading' ? job.nextRunAt : new Date(now.getTime() + debounce.delay);
    return upsert(match, values({ ...job, nextRunAt: firstDue, debounceStartedAt: now }), (existing) => {
      const startedAt = existing.debounce_started_at === null ? now : new Date(existing.debounce_started_at);
      if (debounce.strategy === 'leading') {
        const keptDue = existing.next_run_at === null ? null : new Date(existing.next_run_at);
        return values({ ...job, nextRunAt: keptDue, debounceStartedAt: startedAt });
      }
      const waitedTooLong = debounce.maxWait !== undefined && now.getTime() - startedAt.getTime() >= debounce.maxWait;
      return waitedTooLong
        ? values({ ...job, nextRunAt: now, debounceStartedAt: undefined })
        : values({ ...job, nextRunAt: new Date(now.getTime() + debounce.delay), debounceStartedAt: startedAt });
    });
  }
  return toJob(insert(db, table, values(job)));

  function values(params: JobParameters): ColumnValues {
    return { ...definitionValues(params, lastModifiedBy), ...processorValues(params, true) };
  }
}

function insert(db: SqliteDatabase, table: string, values: ColumnValues): JobRow {
  const row: ColumnValues = { id: randomUUID(), ...values };
  const columns = Object.keys(row);
  return db
    .prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING *`)
    .get(...Object.values(row)) as JobRow;
}

function update(db: SqliteDatabase, table: string, where: Sql, values: ColumnValues): JobRow | undefined {
  const columns = Object.keys(values);
  return db
    .prepare(`UPDATE ${table} SET ${columns.map((column) => `${column} = ?`).join(', ')} WHERE ${where.sql} RETURNING *`)
    .get(...Object.values(values), ...where.params) as JobRow | undefined;
}
