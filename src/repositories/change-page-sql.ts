import type { DataSource, Driver } from 'typeorm';
import type { Sql } from './raw-rows.js';

/** The change_entry columns a page selects, in this order: a ChangeRow holds their values at these positions. */
export const CHANGE_COLUMNS = [
  'id',
  'monitoring_record_id',
  'occurred_at',
  'event_type',
  'kind',
  'table_id',
  'table_name',
  'record_id',
  'field_ids',
  'source',
  'user_email',
  'user_name',
  'before_json',
  'after_json',
] as const;

/** Where a page ended or starts: an entry's occurrence time and id (services/audit/change-position.ts's ChangePosition). */
interface ChangePosition {
  occurredAt: string;
  id: number;
}

/** Equality filters of GET …/changes on change_entry columns, each indexed (config_id, column, occurred_at, id). */
export const COLUMN_FILTERS = {
  recordId: 'record_id',
  userEmail: 'user_email',
  tableId: 'table_id',
  eventType: 'event_type',
  source: 'source',
  kind: 'kind',
} as const;

export type ColumnFilter = keyof typeof COLUMN_FILTERS;
/** What can lead a page: a column filter, the fieldId filter (its own table), or nothing (the time index). */
export type PageLead = ColumnFilter | 'fieldId' | 'time';

export interface ChangeFilters extends Partial<Record<ColumnFilter, string>> {
  fieldId?: string;
  /** Inclusive lower bound, ISO text. */
  fromInstant?: string;
  /** Exclusive upper bound, ISO text. */
  toInstant?: string;
  /** Strictly older than this (occurredAt, id). */
  after?: ChangePosition;
  /** Strictly newer than this (occurredAt, id): the other end of a window read in both directions (GraphQL). */
  before?: ChangePosition;
}

/** Newest first (REST's order) or, to read a window from its oldest end, oldest first. */
export type PageOrder = 'desc' | 'asc';

/** One config's page, for pagesSql. */
export interface PageSpec {
  configId: string;
  filters: ChangeFilters;
  lead: PageLead;
  limit: number;
  order: PageOrder;
}

const SELECTED = CHANGE_COLUMNS.map((column) => `e.${column}`).join(', ');

/**
 * SQL for one page, led by one index chosen by the caller. Every index of a filter is (config_id, <filter>,
 * occurred_at, id), so the leading filter's index gives the rows already in page order and the keyset bound is an
 * index range: no sort, no offset. The other filters are written `col || '' = value`, which no index can serve, so
 * the database cannot wander off to a denser index; they are checked on the rows the leading index yields. SQLite
 * has no statistics unless ANALYZE ran and, given a day range, prefers the time index whatever the filter, so there
 * the leading index is also named (INDEXED BY); PostgreSQL's planner has its histograms.
 */
export function pageSql(
  dataSource: DataSource,
  configId: string,
  filters: ChangeFilters,
  lead: PageLead,
  limit: number,
  order: PageOrder = 'desc',
): Sql {
  const sql = new SqlBuilder(dataSource.driver);
  return sql.done(pageText(sql, { configId, filters, lead, limit, order }, SELECTED));
}

/**
 * The pages of several configs in one statement (GraphQL: the first page of each config of a list), each row with
 * its `config_id` after the change columns. Each part is pageSql's own query, so each still walks its leading index.
 */
export function pagesSql(dataSource: DataSource, pages: PageSpec[]): Sql {
  const sql = new SqlBuilder(dataSource.driver);
  const parts = pages.map((page, i) => `SELECT * FROM (${pageText(sql, page, `${SELECTED}, e.config_id`)}) p${i}`);
  return sql.done(parts.join(' UNION ALL '));
}

/** Entries of one config by id (GraphQL node lookups). */
export function entriesSql(dataSource: DataSource, configId: string, ids: number[]): Sql {
  const sql = new SqlBuilder(dataSource.driver);
  // Parameters in text order: SQLite's `?` are positional.
  const config = sql.param(configId);
  return sql.done(
    `SELECT ${SELECTED} FROM change_entry e WHERE e.config_id = ${config} AND e.id IN (${ids.map((id) => sql.param(id)).join(', ')})`,
  );
}

function pageText(sql: SqlBuilder, { configId, filters, lead, limit, order }: PageSpec, columns: string): string {
  const { from, where, time, id } = matching(sql, configId, filters, lead);
  const direction = order === 'desc' ? 'DESC' : 'ASC';
  return `SELECT ${columns} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${time} ${direction}, ${id} ${direction} LIMIT ${limit}`;
}

/**
 * How many entries of each config match (GraphQL's totalCount), one statement for several configs: each part
 * counts along its config's leading index, as its pages are read.
 */
export function countsSql(dataSource: DataSource, counts: Array<{ configId: string; filters: ChangeFilters; lead: PageLead }>): Sql {
  const sql = new SqlBuilder(dataSource.driver);
  const parts = counts.map(({ configId, filters, lead }) => {
    const { from, where } = matching(sql, configId, filters, lead);
    return `SELECT e.config_id, COUNT(*) AS n FROM ${from} WHERE ${where.join(' AND ')} GROUP BY e.config_id`;
  });
  return sql.done(parts.join(' UNION ALL '));
}

/** The rows of one config that match the filters, led by the `lead` index: FROM and WHERE, and the order columns. */
function matching(sql: SqlBuilder, configId: string, filters: ChangeFilters, lead: PageLead) {
  const byField = lead === 'fieldId';
  const [time, id] = byField ? ['f.occurred_at', 'f.entry_id'] : ['e.occurred_at', 'e.id'];
  const where: string[] = [];
  if (byField) where.push(`f.config_id = ${sql.param(configId)}`, `f.field_id = ${sql.param(filters.fieldId)}`);
  where.push(`e.config_id = ${sql.param(configId)}`);
  for (const [name, column] of Object.entries(COLUMN_FILTERS) as Array<[ColumnFilter, string]>) {
    const value = filters[name];
    if (value === undefined) continue;
    where.push(name === lead ? `e.${column} = ${sql.param(value)}` : `e.${column} || '' = ${sql.param(value)}`);
  }
  if (filters.fieldId !== undefined && !byField) {
    where.push(`EXISTS (SELECT 1 FROM change_entry_field x WHERE x.entry_id = e.id AND x.field_id = ${sql.param(filters.fieldId)})`);
  }
  where.push(...bounds(sql, filters, time, id));
  const from = byField
    ? `change_entry_field f${sql.indexedBy(lead)} JOIN change_entry e ON e.id = f.entry_id`
    : `change_entry e${sql.indexedBy(lead)}`;
  return { from, where, time, id };
}

/**
 * The occurrence time of the `depth`-th newest entry (oldest, for `asc`) matching one filter alone within the page's
 * bounds: an index-only walk of `depth` entries. None means fewer than that many match.
 */
export function depthProbeSql(
  dataSource: DataSource,
  configId: string,
  filters: ChangeFilters,
  lead: ColumnFilter | 'fieldId',
  depth: number,
  order: PageOrder = 'desc',
): Sql {
  const sql = new SqlBuilder(dataSource.driver);
  const direction = order === 'desc' ? 'DESC' : 'ASC';
  if (lead === 'fieldId') {
    const where = [`f.config_id = ${sql.param(configId)}`, `f.field_id = ${sql.param(filters.fieldId)}`];
    where.push(...bounds(sql, filters, 'f.occurred_at', 'f.entry_id'));
    return sql.done(
      `SELECT f.occurred_at FROM change_entry_field f${sql.indexedBy(lead)} WHERE ${where.join(' AND ')} ` +
        `ORDER BY f.occurred_at ${direction}, f.entry_id ${direction} LIMIT 1 OFFSET ${depth}`,
    );
  }
  const column = COLUMN_FILTERS[lead];
  const where = [`e.config_id = ${sql.param(configId)}`, `e.${column} = ${sql.param(filters[lead])}`];
  where.push(...bounds(sql, filters, 'e.occurred_at', 'e.id'));
  return sql.done(
    `SELECT e.occurred_at FROM change_entry e${sql.indexedBy(lead)} WHERE ${where.join(' AND ')} ` +
      `ORDER BY e.occurred_at ${direction}, e.id ${direction} LIMIT 1 OFFSET ${depth}`,
  );
}

function bounds(sql: SqlBuilder, filters: ChangeFilters, time: string, id: string): string[] {
  const where: string[] = [];
  if (filters.fromInstant) where.push(`${time} >= ${sql.param(filters.fromInstant)}`);
  if (filters.toInstant) where.push(`${time} < ${sql.param(filters.toInstant)}`);
  // A row value comparison is an index range on both SQLite and PostgreSQL.
  if (filters.after) where.push(`(${time}, ${id}) < (${sql.param(filters.after.occurredAt)}, ${sql.param(filters.after.id)})`);
  if (filters.before) where.push(`(${time}, ${id}) > (${sql.param(filters.before.occurredAt)}, ${sql.param(filters.before.id)})`);
  return where;
}

/** The index that serves each lead (migration 1764000000000). */
const LEAD_INDEXES: Record<PageLead, string> = {
  time: 'ix_change_entry_time',
  fieldId: 'ix_change_entry_field_lookup',
  ...(Object.fromEntries(Object.entries(COLUMN_FILTERS).map(([name, column]) => [name, `ix_change_entry_${column}`])) as Record<
    ColumnFilter,
    string
  >),
};

/** Collects positional parameters in the driver's own placeholder syntax (`?` or `$n`), and SQLite's index hints. */
class SqlBuilder {
  private readonly params: unknown[] = [];
  private readonly isSqlite: boolean;

  constructor(private readonly driver: Driver) {
    this.isSqlite = driver.options.type === 'better-sqlite3';
  }

  indexedBy(lead: PageLead): string {
    return this.isSqlite ? ` INDEXED BY ${LEAD_INDEXES[lead]}` : '';
  }

  param(value: unknown): string {
    this.params.push(value);
    return this.driver.createParameter(`p${this.params.length}`, this.params.length - 1);
  }

  done(text: string): Sql {
    return { text, params: this.params };
  }
}
