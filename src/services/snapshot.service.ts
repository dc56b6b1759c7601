import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { UsageBase, UsageSnapshot, type TableCount } from '../entities/index.js';
import { invalidRequest, notFound } from '../errors.js';
import type { UsageBaseService } from './usage-base.service.js';

export interface SnapshotTotals {
  recordCount: number;
  storageBytes: number;
  fileCount: number;
  tableCount: number;
}

/** A counted day. `tablesJson` is the per-table array already serialised, so a year of days renders without re-encoding. */
export interface SnapshotDay {
  date: string;
  totals: SnapshotTotals;
  tablesJson: string;
}

export interface SnapshotQuery {
  from?: string;
  to?: string;
  /** A day: only days strictly older than it. */
  cursor?: string;
  limit: number;
}

export interface SnapshotPage {
  baseId: string;
  days: SnapshotDay[];
  nextCursor?: string;
}

interface SnapshotRow {
  date: string;
  record_count: number | string;
  storage_bytes: number | string;
  file_count: number | string;
  table_count: number;
  tables_json: string;
}

/** The daily usage history of tracked bases. */
export class SnapshotService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly bases: UsageBaseService,
  ) {}

  /** Days newest first; `nextCursor` only when an older day exists within the bounds. */
  async list(accountId: string, usageBaseId: string, query: SnapshotQuery): Promise<SnapshotPage> {
    return this.listOf(await this.bases.get(accountId, usageBaseId), query);
  }

  /** The same for a base already loaded (and access-checked) by the caller. */
  async listOf(base: UsageBase, query: SnapshotQuery): Promise<SnapshotPage> {
    if (query.from && query.to && query.from > query.to) throw invalidRequest('from must not be after to');
    const qb = this.dataSource
      .createQueryBuilder()
      .select(['date', 'record_count', 'storage_bytes', 'file_count', 'table_count', 'tables_json'])
      .from(UsageSnapshot, 's')
      .where('usage_base_id = :id', { id: base.id })
      .orderBy('date', 'DESC')
      .limit(query.limit + 1);
    if (query.from) qb.andWhere('date >= :from', { from: query.from });
    if (query.to) qb.andWhere('date <= :to', { to: query.to });
    if (query.cursor) qb.andWhere('date < :cursor', { cursor: query.cursor });
    const rows: SnapshotRow[] = await qb.getRawMany();
    const days = rows.slice(0, query.limit).map(toSnapshotDay);
    const nextCursor = rows.length > query.limit ? days[days.length - 1].date : undefined;
    return { baseId: base.baseId, days, nextCursor };
  }

  /** Writes a day's per-table counts and totals in one transaction, replacing an earlier count of that day. */
  async record(usageBaseId: string, date: string, tables: TableCount[], countedAt: Date): Promise<SnapshotDay> {
    const totals = sumTables(tables);
    const tablesJson = JSON.stringify(tables);
    await this.dataSource.transaction(async (manager) => {
      // The base may have been deleted while it was counted: then there is nothing to record.
      const bumped = await manager.increment(UsageBase, { id: usageBaseId }, 'snapshotVersion', 1);
      if (!bumped.affected) throw notFound('Usage base');
      const row = { id: randomUUID(), usageBaseId, date, ...totals, tablesJson, countedAt };
      await manager.upsert(UsageSnapshot, row, { conflictPaths: ['usageBaseId', 'date'] });
    });
    return { date, totals, tablesJson };
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
  tablesJson: row.tables_json,
});
