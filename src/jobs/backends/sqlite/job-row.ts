import { toJobId, type JobParameters } from 'agenda';
import { iso, type SqlValue } from './sql-parts.js';

/** One `agenda_job` row as better-sqlite3 returns it. */
export interface JobRow {
  id: string;
  name: string;
  priority: number;
  type: string;
  data: string;
  next_run_at: string | null;
  locked_at: string | null;
  last_run_at: string | null;
  last_finished_at: string | null;
  failed_at: string | null;
  fail_count: number | null;
  fail_reason: string | null;
  repeat_interval: string | null;
  repeat_timezone: string | null;
  repeat_at: string | null;
  start_date: string | null;
  end_date: string | null;
  skip_days: string | null;
  disabled: number;
  progress: number | null;
  fork: number | null;
  unique_query: string | null;
  unique_opts: string | null;
  debounce_started_at: string | null;
  last_modified_by: string | null;
}

export type ColumnValues = Record<string, SqlValue>;

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));
const parsed = <T>(value: string | null): T | undefined => (value === null ? undefined : (JSON.parse(value) as T));
const date = (value: string | null): Date | undefined => (value === null ? undefined : new Date(value));
const flag = (value: boolean | undefined): number => (value ? 1 : 0);
/**
 * Agenda stores whatever a handler failed with: an Error's message, but a thrown string or plain object as it is.
 * SQLite cannot bind an object, and a failure that cannot be saved would leave the job locked with nothing recorded.
 */
export const reasonText = (reason: unknown): string | null => {
  if (reason === undefined || reason === null) return null;
  if (typeof reason === 'string') return reason;
  try {
    return JSON.stringify(reason) ?? String(reason);
  } catch {
    return String(reason);
  }
};

export function toJob<DATA = unknown>(row: JobRow): JobParameters<DATA> {
  return {
    _id: toJobId(row.id),
    name: row.name,
    priority: row.priority,
    nextRunAt: row.next_run_at === null ? null : new Date(row.next_run_at),
    type: row.type === 'single' ? 'single' : 'normal',
    data: JSON.parse(row.data) as DATA,
    lockedAt: date(row.locked_at),
    lastRunAt: date(row.last_run_at),
    lastFinishedAt: date(row.last_finished_at),
    failedAt: date(row.failed_at),
    failCount: row.fail_count ?? undefined,
    failReason: row.fail_reason ?? undefined,
    repeatInterval: parsed<string | number>(row.repeat_interval),
    repeatTimezone: row.repeat_timezone ?? undefined,
    repeatAt: row.repeat_at ?? undefined,
    startDate: date(row.start_date),
    endDate: date(row.end_date),
    skipDays: parsed<number[]>(row.skip_days),
    disabled: row.disabled === 1,
    progress: row.progress ?? undefined,
    fork: row.fork === null ? undefined : row.fork === 1,
    unique: parsed<Record<string, unknown>>(row.unique_query),
    uniqueOpts: parsed<JobParameters['uniqueOpts']>(row.unique_opts),
    debounceStartedAt: date(row.debounce_started_at),
    lastModifiedBy: row.last_modified_by ?? undefined,
  };
}

/** What a save always writes: the job's definition and schedule. Missing values are stored as missing (NULL). */
export function definitionValues(job: JobParameters, lastModifiedBy: string | null): ColumnValues {
  return {
    name: job.name,
    priority: job.priority ?? 0,
    type: job.type === 'single' ? 'single' : 'normal',
    data: JSON.stringify(job.data ?? null),
    next_run_at: iso(job.nextRunAt),
    repeat_interval: json(job.repeatInterval),
    repeat_timezone: job.repeatTimezone ?? null,
    repeat_at: job.repeatAt ?? null,
    start_date: iso(job.startDate),
    end_date: iso(job.endDate),
    skip_days: json(job.skipDays),
    disabled: flag(job.disabled),
    fork: job.fork === undefined ? null : flag(job.fork),
    unique_query: json(job.unique),
    unique_opts: json(job.uniqueOpts),
    debounce_started_at: iso(job.debounceStartedAt),
    last_modified_by: lastModifiedBy,
  };
}

const processorColumns: Array<[column: string, field: keyof JobParameters, value: (job: JobParameters) => SqlValue]> = [
  ['locked_at', 'lockedAt', (job) => iso(job.lockedAt)],
  ['last_run_at', 'lastRunAt', (job) => iso(job.lastRunAt)],
  ['last_finished_at', 'lastFinishedAt', (job) => iso(job.lastFinishedAt)],
  ['failed_at', 'failedAt', (job) => iso(job.failedAt)],
  ['fail_count', 'failCount', (job) => job.failCount ?? null],
  ['fail_reason', 'failReason', (job) => reasonText(job.failReason)],
  ['progress', 'progress', (job) => job.progress ?? null],
];

/**
 * The fields the job processor owns. `Job.save()` leaves their keys out so that saving from user code cannot undo
 * a lock or a run in progress; a caller that does name them (agendash's retry sets them to undefined) means it.
 */
export function processorValues(job: JobParameters, onlyNamed: boolean): ColumnValues {
  const values: ColumnValues = {};
  for (const [column, field, value] of processorColumns) {
    if (!onlyNamed || field in job) {
      values[column] = value(job);
    }
  }
  return values;
}

/** The job's state fields as `saveJobState` writes them, in the order of its statement. */
export function stateValues(job: JobParameters): SqlValue[] {
  return [
    iso(job.lockedAt),
    iso(job.nextRunAt),
    iso(job.lastRunAt),
    job.progress ?? null,
    reasonText(job.failReason),
    job.failCount ?? null,
    iso(job.failedAt),
    iso(job.lastFinishedAt),
  ];
}
