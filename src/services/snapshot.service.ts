import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { UsageBase, UsageSnapshot, type TableCount } from '../entities/index.js';
import { invalidRequest, notFound } from '../errors.js';
import { countedDays, latestSnapshotRows, snapshotRowsOf, type SnapshotRow } from '../repositories/usage-snapshot.repository.js';
import type { ReadModelCache } from './read-model-cache.js';
import type { UsageBaseService } from './usage-base.service.js';

export interface SnapshotTotals {
  recordCount: number;
  storageBytes: number;
  fileCount: number;
  tableCount: number;
}

/** A counted day: its tables, and the same as stored JSON text, which REST writes as it is. Shared: never changed. */
export interface SnapshotDay {
  date: string;
  totals: SnapshotTotals;
  tables: TableCount[];
  tablesJson: string;
  /** Upstream requests the day's count spent (null: counted before they were counted); not in the REST shape. */
  apiCalls: number | null;
  /** No count was needed: the last full count's figures carried over (countOnlyWhenChanged). */
  carriedOver: boolean;
}

export interface SnapshotQuery {
  from?: string;
  to?: string;
  /** A day: only days strictly older than it. */
  cursor?: string;
  limit: number;
}

/** Days within inclusive bounds, from the newest or from the oldest end (GraphQL pages both ways). */
export interface SnapshotRange {
  from?: string;
  to?: string;
  limit: number;
  order: 'newest' | 'oldest';
}

/** A day being written, as sinks see it inside the write's transaction. */
export interface RecordedDay {
  usageBaseId: string;
  date: string;
  totals: SnapshotTotals;
  countedAt: Date;
}

/** Work that commits (or rolls back) with a recorded day (threshold alerts); `committed` runs after the commit. */
export interface SnapshotSink {
  accept(manager: EntityManager, day: RecordedDay): Promise<void>;
  committed(): void;
}

/** What a day's count spent upstream; carried over: no count was needed, the previous day's figures stand. */
export interface CountCost {
  apiCalls: number | null;
  carriedOver?: boolean;
  fromMirror?: boolean;
  startedAt?: Date;
}

/** Told of every recorded day, after its transaction committed (GraphQL subscriptions). Must not throw. */
export type SnapshotListener = (event: { usageBaseId: string; day: SnapshotDay }) => void;

export interface SnapshotPage {
  baseId: string;
  days: SnapshotDay[];
  nextCursor?: string;
}

/** The daily usage history of tracked bases. */
export class SnapshotService {
  private readonly listeners = new Set<SnapshotListener>();
  private readonly sinks: SnapshotSink[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly bases: UsageBaseService,
    private readonly cache: ReadModelCache,
  ) {}

  /** Days newest first; `nextCursor` only when an older day exists within the bounds. */
  async list(accountId: string, usageBaseId: string, query: SnapshotQuery): Promise<SnapshotPage> {
    return this.listOf(await this.bases.get(accountId, usageBaseId), query);
  }

  /** The same for a base already loaded (and access-checked) by the caller: the newest days of `range`, one more for the cursor. */
  async listOf(base: UsageBase, query: SnapshotQuery): Promise<SnapshotPage> {
    if (query.from && query.to && query.from > query.to) throw invalidRequest('from must not be after to');
    // Strictly older than the cursor day is on or before the day before it.
    const to = query.cursor ? earlierDay(query.to, dayBefore(query.cursor)) : query.to;
    const rows = await this.range(base, { from: query.from, to, limit: query.limit + 1, order: 'newest' });
    const days = rows.slice(0, query.limit);
    const nextCursor = rows.length > query.limit ? days[days.length - 1].date : undefined;
    return { baseId: base.baseId, days, nextCursor };
  }

  /**
   * Days of a base already loaded (and access-checked) by the caller, in the order asked for; no paging cursor. Kept
   * in the read-model cache under the base's snapshot version, which every recorded day bumps.
   */
  async range(base: UsageBase, range: SnapshotRange): Promise<SnapshotDay[]> {
    if (range.limit <= 0 || (range.from && range.to && range.from > range.to)) return [];
    const key = ['snapshots', base.id, base.snapshotVersion, range.from, range.to, range.limit, range.order].join(':');
    return this.cache.get(key, () => this.readRange(base, range), daysBytes);
  }

  private async readRange(base: UsageBase, range: SnapshotRange): Promise<SnapshotDay[]> {
    const rows = await snapshotRowsOf(this.dataSource, base.id, range);
    return rows.map(toSnapshotDay);
  }

  /** The newest day of each of these bases, in one query; bases without a count are absent from the map. */
  async latestOf(usageBaseIds: string[]): Promise<Map<string, SnapshotDay>> {
    const latest = new Map<string, SnapshotDay>();
    if (usageBaseIds.length === 0) return latest;
    const rows = await latestSnapshotRows(this.dataSource, usageBaseIds);
    for (const row of rows) latest.set(row.usage_base_id, toSnapshotDay(row));
    return latest;
  }

  /** How many days each of these bases has counted within `from`–`to` (inclusive), in one query on the (base, date) index. */
  async countDays(usageBaseIds: string[], bounds: { from?: string; to?: string }): Promise<Map<string, number>> {
    const counts = new Map(usageBaseIds.map((id) => [id, 0]));
    if (usageBaseIds.length === 0 || (bounds.from && bounds.to && bounds.from > bounds.to)) return counts;
    for (const row of await countedDays(this.dataSource, usageBaseIds, bounds)) counts.set(row.id, row.n);
    return counts;
  }

  /** Subscribes to recorded days; returns the unsubscribe function. */
  onRecorded(listener: SnapshotListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  addSink(sink: SnapshotSink): void {
    this.sinks.push(sink);
  }

  /**
   * Writes a day's per-table counts and totals in one transaction with the sinks' work, replacing an earlier count
   * of that day.
   */
  async record(
    usageBaseId: string,
    date: string,
    tables: TableCount[],
    countedAt: Date,
    cost: CountCost = { apiCalls: null },
  ): Promise<SnapshotDay> {
    const totals = sumTables(tables);
    const tablesJson = JSON.stringify(tables);
    const written = await this.dataSource.transaction(async (manager) => {
      // The base may have been deleted while it was counted: then there is nothing to record.
      const bumped = await manager.increment(UsageBase, { id: usageBaseId }, 'snapshotVersion', 1);
      if (!bumped.affected) throw notFound('Usage base');
      const row = {
        id: randomUUID(),
        usageBaseId,
        date,
        ...totals,
        tablesJson,
        countedAt,
        apiCalls: cost.apiCalls,
        carriedOver: cost.carriedOver ?? false,
        fromMirror: cost.fromMirror ?? false,
        countStartedAt: cost.startedAt ?? null,
      };
      // A carried-over day never replaces a count of that day (made while the log was read).
      if (row.carriedOver && (await manager.existsBy(UsageSnapshot, { usageBaseId, date }))) return false;
      await manager.upsert(UsageSnapshot, row, { conflictPaths: ['usageBaseId', 'date'] });
      for (const sink of this.sinks) await sink.accept(manager, { usageBaseId, date, totals, countedAt });
      return true;
    });
    const day = { date, totals, tables, tablesJson, apiCalls: cost.apiCalls, carriedOver: cost.carriedOver ?? false };
    // Nobody is told of a carried-over day that was not written.
    if (!written) return day;
    for (const sink of this.sinks) sink.committed();
    for (const listener of this.listeners) listener({ usageBaseId, day });
    return day;
  }
}

function sumTables(tables: TableCount[]): SnapshotTotals {
  const totals = { recordCount: 0, storageBytes: 0, fileCount: 0, tableCount: tables.length };
  for (const table of tables) {
    totals.recordCount += table.recordCount;
    totals.storageBytes += table.storageBytes;
    totals.fileCount += table.fileCount;
  }
  return totals;
}

const toSnapshotDay = (row: SnapshotRow): SnapshotDay => ({
  date: row.date,
  totals: {
    recordCount: Number(row.record_count),
    storageBytes: Number(row.storage_bytes),
    fileCount: Number(row.file_count),
    tableCount: Number(row.table_count),
  },
  tables: JSON.parse(row.tables_json) as TableCount[],
  tablesJson: row.tables_json,
  apiCalls: row.api_calls === null ? null : Number(row.api_calls),
  carriedOver: Boolean(row.carried_over),
});

/** A page's size in memory: its tables twice (parsed and as text), and the rest of each day. */
const daysBytes = (days: SnapshotDay[]) => days.reduce((sum, day) => sum + 3 * day.tablesJson.length + 300, 0);

/** The day before a YYYY-MM-DD day. */
function dayBefore(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}

/** The earlier of an optional bound and a day (YYYY-MM-DD sorts as text). */
const earlierDay = (bound: string | undefined, day: string) => (bound === undefined || day < bound ? day : bound);
