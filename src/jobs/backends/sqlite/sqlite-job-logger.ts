import { randomUUID } from 'node:crypto';
import type { JobLogEntry, JobLogger, JobLogQuery, JobLogQueryResult } from 'agenda';
import type { DataSource } from 'typeorm';
import { sqliteHandle } from '../../../repositories/sqlite-handle.js';
import { and, iso, quotedTable, type Sql } from './sql-parts.js';
import { reasonText } from './job-row.js';

interface LogRow {
  id: string;
  timestamp: string;
  level: JobLogEntry['level'];
  event: JobLogEntry['event'];
  job_id: string | null;
  job_name: string;
  message: string;
  duration: number | null;
  error: string | null;
  fail_count: number | null;
  retry_delay: number | null;
  retry_attempt: number | null;
  agenda_name: string | null;
  meta: string | null;
}

/** Agenda's job event log in its own table; Agenda only writes to it when created with `logging: true`. */
export class SqliteJobLogger implements JobLogger {
  private readonly dataSource: DataSource;
  private readonly table: string;

  constructor(options: { dataSource: DataSource; tableName?: string }) {
    this.dataSource = options.dataSource;
    this.table = quotedTable(options.tableName ?? 'agenda_job_log');
  }

  async log(entry: Omit<JobLogEntry, '_id'>): Promise<void> {
    sqliteHandle(this.dataSource)
      .prepare(
        `INSERT INTO ${this.table} (id, timestamp, level, event, job_id, job_name, message, duration, error,
         fail_count, retry_delay, retry_attempt, agenda_name, meta) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        randomUUID(),
        iso(entry.timestamp),
        entry.level,
        entry.event,
        entry.jobId ?? null,
        entry.jobName,
        entry.message,
        entry.duration ?? null,
        reasonText(entry.error),
        entry.failCount ?? null,
        entry.retryDelay ?? null,
        entry.retryAttempt ?? null,
        entry.agendaName ?? null,
        entry.meta === undefined ? null : JSON.stringify(entry.meta),
      );
  }

  async getLogs(query: JobLogQuery = {}): Promise<JobLogQueryResult> {
    const db = sqliteHandle(this.dataSource);
    const where = logFilter(query);
    const direction = query.sort === 'asc' ? 'ASC' : 'DESC';
    const rows = db
      .prepare(
        `SELECT * FROM ${this.table} WHERE ${where.sql}
         ORDER BY timestamp ${direction}, rowid ${direction} LIMIT ? OFFSET ?`,
      )
      .all(...where.params, query.limit ?? 50, query.offset ?? 0) as LogRow[];
    const total = db
      .prepare(`SELECT COUNT(*) FROM ${this.table} WHERE ${where.sql}`)
      .pluck()
      .get(...where.params);
    return { entries: rows.map(toEntry), total: total as number };
  }

  async clearLogs(query: JobLogQuery = {}): Promise<number> {
    const where = logFilter(query);
    return sqliteHandle(this.dataSource)
      .prepare(`DELETE FROM ${this.table} WHERE ${where.sql}`)
      .run(...where.params).changes;
  }
}

function logFilter(query: JobLogQuery): Sql {
  const parts: Sql[] = [];
  const oneOf = (column: string, value: string | string[]): Sql => ({
    sql: `${column} IN (SELECT value FROM json_each(?))`,
    params: [JSON.stringify(Array.isArray(value) ? value : [value])],
  });
  if (query.jobId) parts.push({ sql: 'job_id = ?', params: [query.jobId] });
  if (query.jobName) parts.push({ sql: 'job_name = ?', params: [query.jobName] });
  if (query.level) parts.push(oneOf('level', query.level));
  if (query.event) parts.push(oneOf('event', query.event));
  if (query.from) parts.push({ sql: 'timestamp >= ?', params: [iso(query.from)] });
  if (query.to) parts.push({ sql: 'timestamp <= ?', params: [iso(query.to)] });
  return and(parts);
}

function toEntry(row: LogRow): JobLogEntry {
  return {
    _id: row.id,
    timestamp: new Date(row.timestamp),
    level: row.level,
    event: row.event,
    jobId: row.job_id ?? undefined,
    jobName: row.job_name,
    message: row.message,
    duration: row.duration ?? undefined,
    error: row.error ?? undefined,
    failCount: row.fail_count ?? undefined,
    retryDelay: row.retry_delay ?? undefined,
    retryAttempt: row.retry_attempt ?? undefined,
    agendaName: row.agenda_name ?? undefined,
    meta: row.meta === null ? undefined : (JSON.parse(row.meta) as Record<string, unknown>),
  };
}
