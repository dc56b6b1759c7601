import type { JobsQueryOptions, JobsSort, RemoveJobsOptions } from 'agenda';
import { dataFilter } from './json-match.js';
import { and, type Sql } from './sql-parts.js';

const strings = (values: unknown): string[] =>
  Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
// One bound JSON array instead of a placeholder per element: no limit on list length, one statement shape.
const inList = (column: string, values: string[], negate = false): Sql => ({
  sql: `${column} ${negate ? 'NOT IN' : 'IN'} (SELECT value FROM json_each(?))`,
  params: [JSON.stringify(values)],
});

/** The jobs that cancel/disable/enable act on, or null when no criterion was given (then nothing is touched). */
export function selectorFilter(options: RemoveJobsOptions): Sql | null {
  const parts: Sql[] = [];
  const ids = strings(options.ids?.map(String));
  if (options.id) parts.push({ sql: 'id = ?', params: [String(options.id)] });
  else if (ids.length > 0) parts.push(inList('id', ids));
  const names = strings(options.names);
  const notNames = strings(options.notNames);
  if (options.name && typeof options.name === 'string') parts.push({ sql: 'name = ?', params: [options.name] });
  else if (names.length > 0) parts.push(inList('name', names));
  else if (notNames.length > 0) parts.push(inList('name', notNames, true));
  if (options.data !== undefined) parts.push(dataFilter(options.data));
  return parts.length === 0 ? null : and(parts);
}

/** `queryJobs` filters other than the computed state. */
export function queryFilter(options: JobsQueryOptions): Sql {
  const parts: Sql[] = [];
  const names = strings(options.names);
  const ids = strings(options.ids);
  if (options.name && typeof options.name === 'string') parts.push({ sql: 'name = ?', params: [options.name] });
  else if (names.length > 0) parts.push(inList('name', names));
  if (options.id && typeof options.id === 'string') parts.push({ sql: 'id = ?', params: [options.id] });
  else if (ids.length > 0) parts.push(inList('id', ids));
  if (options.search && typeof options.search === 'string') {
    // LIKE is case-insensitive for ASCII, like the MongoDB backend's /search/i.
    parts.push({ sql: "name LIKE ? ESCAPE '\\'", params: [`%${options.search.replace(/[\\%_]/g, '\\$&')}%`] });
  }
  if (options.data !== undefined) parts.push(dataFilter(options.data));
  if (options.includeDisabled === false) parts.push({ sql: 'disabled = 0', params: [] });
  return and(parts);
}

/**
 * Agenda's `computeJobState` as SQL, so a state filter, its pagination and the overview counts run in the database.
 * Instants are fixed-width ISO text, so text comparison is time comparison. The test suite checks it against
 * `computeJobState` job by job.
 */
export function stateExpression(now: Date): Sql {
  return {
    sql: `CASE
      WHEN locked_at IS NOT NULL THEN 'running'
      WHEN failed_at IS NOT NULL AND (last_finished_at IS NULL OR failed_at >= last_finished_at) THEN 'failed'
      WHEN repeat_interval IS NOT NULL AND repeat_interval NOT IN ('""', '0') THEN 'repeating'
      WHEN next_run_at > ? THEN 'scheduled'
      WHEN next_run_at IS NOT NULL THEN 'queued'
      ELSE 'completed' END`,
    params: [now.toISOString()],
  };
}

const SORT_COLUMNS: Record<keyof JobsSort, string> = {
  nextRunAt: 'next_run_at',
  lastRunAt: 'last_run_at',
  lastFinishedAt: 'last_finished_at',
  priority: 'priority',
  name: 'name',
  data: 'data',
};

/** Sort keys in the caller's order; NULL sorts lowest, as in MongoDB; insertion order breaks ties so pages are stable. */
export function orderBy(sort: JobsSort | undefined): string {
  const keys = Object.entries(sort ?? {}).filter(
    (entry): entry is [keyof JobsSort, 'asc' | 'desc'] => entry[0] in SORT_COLUMNS && entry[1] !== undefined,
  );
  const parts =
    keys.length > 0
      ? keys.map(([key, direction]) => `${SORT_COLUMNS[key]} ${direction === 'asc' ? 'ASC' : 'DESC'}`)
      : ['next_run_at DESC', 'last_run_at DESC'];
  return [...parts, 'rowid ASC'].join(', ');
}
