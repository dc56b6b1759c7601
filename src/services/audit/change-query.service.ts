import type { DataSource } from 'typeorm';
import { invalidRequest } from '../../errors.js';
import { canonicalTimeZone, dayRangeInstants, isValidDay } from '../calendar.js';
import type { RawJson } from '../raw-json.js';
import type { ReadModelCache } from '../read-model-cache.js';
import { rawRowReader, type RawRowReader } from '../../repositories/raw-rows.js';
import type { ChangeEventType, ChangeKind, ChangeSource } from './change-event.js';
import type { SignedCursorCodec, SignedCursors } from '../signed-cursor.js';
import { ChangePosition } from './change-position.js';
import {
  COLUMN_FILTERS,
  countsSql,
  depthProbeSql,
  entriesSql,
  pageSql,
  pagesSql,
  type ChangeFilters,
  type ColumnFilter,
  type PageLead,
  type PageOrder,
} from '../../repositories/change-page-sql.js';
import { ChangeRows, positionOf, type ChangeRecord, type ChangeRow } from './change-row.js';

/**
 * How deep the probe that picks the leading index looks. The cost of a page led by a filter grows with how densely
 * that filter matches around the cursor, so the filter whose `PROBE_DEPTH`-th match lies furthest back leads.
 */
const PROBE_DEPTH = 200;

export interface ChangeQuery {
  eventType?: ChangeEventType;
  kind?: ChangeKind;
  tableId?: string;
  recordId?: string;
  source?: ChangeSource;
  userEmail?: string;
  /** Only entries whose fieldIds contain it. */
  fieldId?: string;
  /** YYYY-MM-DD, the oldest day included, in `timezone`. */
  from?: string;
  /** YYYY-MM-DD, the newest day included, in `timezone`. */
  to?: string;
  /** `utc` (default) or an IANA zone. */
  timezone?: string;
  /** 1–100. */
  limit: number;
  /** A nextCursor of this config. */
  cursor?: string;
}

/** A page of GET …/changes: its records as rendered JSON, and a cursor when older matches exist. */
export interface ChangePage {
  records: RawJson;
  nextCursor?: string;
}

/** The filters of a change list without its paging (GraphQL pages with its own cursors). */
export type ChangeFilterQuery = Omit<ChangeQuery, 'limit' | 'cursor'>;

/** A stretch of a config's changes between two positions, read from either end (GraphQL's first/after, last/before). */
export interface ChangeWindow {
  /** Only changes strictly older than this position. */
  olderThan?: ChangePosition;
  /** Only changes strictly newer than this position. */
  newerThan?: ChangePosition;
  limit: number;
  /** The newest `limit` changes of the window, or its oldest `limit`; returned newest first either way. */
  end: 'newest' | 'oldest';
}

/** Filters in the order their probes run: the usually sparse first, since a probe that comes up short ends the search. */
const LEAD_CANDIDATES: Array<ColumnFilter | 'fieldId'> = ['recordId', 'fieldId', 'userEmail', 'tableId', 'eventType', 'source', 'kind'];

/** A config as a change read needs it: its id, and its changes version (bumped by every write to its entries) to cache by. */
export interface ChangeLogRef {
  id: string;
  /** Unknown: the read is not cached. */
  changesVersion?: number;
}

/**
 * The read side of the audit log: a config's changes, filtered, newest first, in keyset pages. Each window read is
 * kept in the read-model cache under the config's changes version, for REST and GraphQL alike.
 */
export class ChangeQueryService {
  private readonly cursors: SignedCursorCodec<ChangePosition>;
  private readonly read: RawRowReader;

  constructor(
    private readonly dataSource: DataSource,
    cursors: SignedCursors,
    private readonly cache: ReadModelCache,
  ) {
    this.cursors = cursors.codec('changes nextCursor', ChangePosition, 'cursor is not a nextCursor of this config’s changes');
    this.read = rawRowReader(dataSource);
  }

  /** Newest first by (occurredAt, id); `nextCursor` only when an older match exists. */
  async list(config: ChangeLogRef, { limit, cursor, ...filter }: ChangeQuery): Promise<ChangePage> {
    const olderThan = cursor === undefined ? undefined : this.cursors.decode(config.id, cursor);
    // One more than the page: whether an older match exists comes with it.
    const window = await this.cachedWindow(config, filter, { olderThan, limit: limit + 1, end: 'newest' });
    const { rows } = window;
    if (rows.length <= limit) return { records: window.json(rows.length) };
    return { records: window.json(limit), nextCursor: this.cursors.encode(config.id, positionOf(rows[limit - 1])) };
  }

  /** A window of the config's changes, newest first, led by the sparsest filter's index. */
  async window(config: ChangeLogRef, query: ChangeFilterQuery, window: ChangeWindow): Promise<ChangeRecord[]> {
    return (await this.cachedWindow(config, query, window)).records();
  }

  private cachedWindow(config: ChangeLogRef, query: ChangeFilterQuery, window: ChangeWindow): Promise<ChangeRows> {
    const read = async () => new ChangeRows(await this.windowRows(config, query, window));
    const key = windowKey(config, query, window);
    return key === undefined ? read() : this.cache.get(key, read, (rows) => rows.bytes);
  }

  private async windowRows(config: { id: string }, query: ChangeFilterQuery, window: ChangeWindow): Promise<ChangeRow[]> {
    const order: PageOrder = window.end === 'newest' ? 'desc' : 'asc';
    const filters = { ...this.filtersOf(query), after: window.olderThan, before: window.newerThan };
    const lead = await this.leadFor(config.id, filters, order);
    const rows = await this.read(pageSql(this.dataSource, config.id, filters, lead, window.limit, order));
    return order === 'desc' ? rows : rows.reverse();
  }

  /**
   * The same unbounded window (no positions) of several configs in ONE statement, by config id: a list of configs
   * with their latest changes costs one page query, not one per config (only several filters add their probes).
   */
  async windows(
    configs: ChangeLogRef[],
    query: ChangeFilterQuery,
    window: Pick<ChangeWindow, 'limit' | 'end'>,
  ): Promise<Map<string, ChangeRecord[]>> {
    const found = new Map<string, ChangeRecord[]>();
    const missing: ChangeLogRef[] = [];
    for (const config of configs) {
      const key = windowKey(config, query, window);
      const kept = key === undefined ? undefined : this.cache.peek<ChangeRows>(key);
      if (kept) found.set(config.id, kept.records());
      else missing.push(config);
    }
    if (missing.length === 0) return found;
    const order: PageOrder = window.end === 'newest' ? 'desc' : 'asc';
    const filters = this.filtersOf(query);
    const pages = await Promise.all(
      missing.map(async ({ id: configId }) => ({
        configId,
        filters,
        lead: await this.leadFor(configId, filters, order),
        limit: window.limit,
        order,
      })),
    );
    const rowsOf = new Map<string, ChangeRow[]>(missing.map((config) => [config.id, []]));
    // pagesSql selects each row's config id after the change columns.
    for (const row of await this.read(pagesSql(this.dataSource, pages))) rowsOf.get(row[row.length - 1] as string)?.push(row);
    for (const config of missing) {
      const rows = new ChangeRows(rowsOf.get(config.id)!.sort(newestFirst));
      const key = windowKey(config, query, window);
      if (key !== undefined) this.cache.set(key, rows, rows.bytes);
      found.set(config.id, rows.records());
    }
    return found;
  }

  /** How many changes of each config (already access-checked) match the filters, in one statement. */
  async counts(configIds: string[], query: ChangeFilterQuery): Promise<Map<string, number>> {
    const counts = new Map(configIds.map((id) => [id, 0]));
    if (configIds.length === 0) return counts;
    const filters = this.filtersOf(query);
    const parts = await Promise.all(
      configIds.map(async (configId) => ({ configId, filters, lead: await this.leadFor(configId, filters) })),
    );
    for (const [configId, n] of await this.read(countsSql(this.dataSource, parts))) counts.set(configId as string, Number(n));
    return counts;
  }

  /** Changes of a config by id, in no particular order; ids it does not have are left out. */
  async byIds(config: { id: string }, ids: string[]): Promise<ChangeRecord[]> {
    const numeric = [...new Set(ids.filter((id) => /^[1-9]\d{0,14}$/.test(id)).map(Number))];
    if (numeric.length === 0) return [];
    return new ChangeRows(await this.read(entriesSql(this.dataSource, config.id, numeric))).records();
  }

  private filtersOf(query: ChangeFilterQuery): ChangeFilters {
    return { ...pick(query, Object.keys(COLUMN_FILTERS) as ColumnFilter[]), fieldId: query.fieldId, ...instantBounds(query) };
  }

  /**
   * The filter whose index leads the page. A database picks one index per table scan and, without per-value
   * statistics, would pick blindly; leading with a dense filter while a sparse one is given scans most of a million
   * entries. So each filter's density near the cursor is measured: the sparsest leads.
   */
  private async leadFor(configId: string, filters: ChangeFilters, order: PageOrder = 'desc'): Promise<PageLead> {
    const given = LEAD_CANDIDATES.filter((name) => filters[name] !== undefined);
    if (given.length <= 1) return given[0] ?? 'time';
    let sparsest: { name: PageLead; reachedAt: string } | undefined;
    // Reading oldest first, the sparsest filter is the one whose probe reaches furthest forward.
    const further = (a: string, b: string) => (order === 'desc' ? a < b : a > b);
    for (const name of given) {
      const [deepest] = await this.read(depthProbeSql(this.dataSource, configId, filters, name, PROBE_DEPTH, order));
      if (!deepest) return name;
      const reachedAt = deepest[0] as string;
      if (!sparsest || further(reachedAt, sparsest.reachedAt)) sparsest = { name, reachedAt };
    }
    return sparsest!.name;
  }
}

/** The cache key of a window of a config at its changes version; none when the version is unknown. */
function windowKey(config: ChangeLogRef, query: ChangeFilterQuery, window: Partial<ChangeWindow>): string | undefined {
  if (config.changesVersion === undefined) return undefined;
  const { olderThan, newerThan, limit, end } = window;
  return ['changes', config.id, config.changesVersion, JSON.stringify(query), JSON.stringify([olderThan, newerThan, limit, end])].join(':');
}

/** Page order: by (occurredAt, id), newest first. */
function newestFirst(a: ChangeRow, b: ChangeRow): number {
  const [x, y] = [positionOf(a), positionOf(b)];
  return x.occurredAt === y.occurredAt ? y.id - x.id : x.occurredAt < y.occurredAt ? 1 : -1;
}

/** `from`/`to` as whole days in the query's zone: [start of `from`, start of the day after `to`), as stored ISO text. */
function instantBounds(query: ChangeFilterQuery): Pick<ChangeFilters, 'fromInstant' | 'toInstant'> {
  const zone = canonicalTimeZone(query.timezone ?? 'utc');
  if (!zone) throw invalidRequest('timezone must be utc or an IANA time zone such as America/New_York');
  for (const day of [query.from, query.to]) {
    if (day !== undefined && !isValidDay(day)) throw invalidRequest(`${day} is not a day in the form YYYY-MM-DD`);
  }
  if (query.from && query.to && query.from > query.to) throw invalidRequest('from must not be after to');
  const range = dayRangeInstants(zone, query.from, query.to);
  return { fromInstant: range.from, toInstant: range.to };
}

function pick<T extends object, K extends keyof T>(source: T, keys: K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}
