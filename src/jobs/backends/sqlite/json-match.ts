import { and, iso, type Sql, type SqlValue } from './sql-parts.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A JSON path as an SQL string literal. It is spliced into the statement rather than bound because SQLite only
 * uses an expression index (`json_extract(data, '$.usageBaseId')`) when the query repeats the same constant.
 */
function jsonPath(segments: string[]): string {
  const path = segments
    .map((segment) => {
      if (IDENTIFIER.test(segment)) return `.${segment}`;
      if (segment === '' || /["\\]/.test(segment)) throw new Error(`unsupported key in a job data path: ${segment}`);
      return `."${segment}"`;
    })
    .join('');
  return `'$${path.replaceAll("'", "''")}'`;
}

/** Equality on one value inside the `data` JSON, with MongoDB's meaning: null matches null or missing, and a
 * string never equals a number or a boolean. */
export function dataEquals(segments: string[], value: unknown): Sql {
  const path = jsonPath(segments);
  const extract = `json_extract(data, ${path})`;
  const type = `json_type(data, ${path})`;
  if (value === null || value === undefined) return { sql: `${extract} IS NULL`, params: [] };
  if (typeof value === 'boolean') return { sql: `${type} = '${value}'`, params: [] };
  if (typeof value === 'number' || typeof value === 'bigint') {
    return { sql: `${extract} = ? AND ${type} IN ('integer', 'real')`, params: [value] };
  }
  if (typeof value === 'string' || value instanceof Date) {
    return { sql: `${extract} = ? AND ${type} = 'text'`, params: [typeof value === 'string' ? value : iso(value)] };
  }
  rejectOperators(value);
  return { sql: `${extract} = json(?) AND ${type} IN ('object', 'array')`, params: [JSON.stringify(value)] };
}

/** MongoDB's partial match on `data`: an object is compared leaf by leaf, anything else as the whole value. */
export function dataFilter(data: unknown): Sql {
  if (!isPlainObject(data)) return { sql: 'data = ?', params: [JSON.stringify(data ?? null)] };
  return and(leaves(data, []).map(([segments, value]) => dataEquals(segments, value)));
}

function leaves(data: Record<string, unknown>, prefix: string[]): Array<[string[], unknown]> {
  return Object.entries(data).flatMap(([key, value]) =>
    isPlainObject(value) ? leaves(value, [...prefix, key]) : [[[...prefix, key], value] as [string[], unknown]],
  );
}

const TOP_LEVEL: Record<string, [column: string, encode: (value: unknown) => SqlValue]> = {
  _id: ['id', (value) => (value === null || value === undefined ? null : String(value))],
  name: ['name', (value) => (value as string | null) ?? null],
  type: ['type', (value) => (value as string | null) ?? null],
  priority: ['priority', (value) => (value as number | null) ?? null],
  disabled: ['disabled', (value) => (value ? 1 : 0)],
  nextRunAt: ['next_run_at', (value) => iso(value as Date | null)],
  repeatInterval: ['repeat_interval', (value) => (value === null || value === undefined ? null : JSON.stringify(value))],
  repeatTimezone: ['repeat_timezone', (value) => (value as string | null) ?? null],
  repeatAt: ['repeat_at', (value) => (value as string | null) ?? null],
  lastModifiedBy: ['last_modified_by', (value) => (value as string | null) ?? null],
};

/**
 * The conditions of a `job.unique({...})` query: dotted `data.…` paths and a few top-level fields, each by equality.
 * MongoDB query operators have no SQL translation here and are refused rather than silently matched as values.
 */
export function uniqueFilter(unique: Record<string, unknown>): Sql {
  return and(
    Object.entries(unique).map(([key, value]): Sql => {
      if (key === 'data') return { sql: 'data = ?', params: [JSON.stringify(value ?? null)] };
      if (key.startsWith('data.')) return dataEquals(key.slice('data.'.length).split('.'), value);
      const column = TOP_LEVEL[key];
      if (!column) throw new Error(`unsupported key in a unique() constraint: ${key}`);
      rejectOperators(value);
      return { sql: `${column[0]} IS ?`, params: [column[1](value)] };
    }),
  );
}

function rejectOperators(value: unknown): void {
  if (isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$'))) {
    throw new Error('query operators are not supported by the SQLite job backend');
  }
}
