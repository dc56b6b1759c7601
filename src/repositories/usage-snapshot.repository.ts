import type { DataSource } from 'typeorm';
import { UsageSnapshot } from '../entities/index.js';

/** A usage_snapshot row as read: numbers may come back as strings (PostgreSQL bigint) and booleans as 0/1 (SQLite). */
export interface SnapshotRow {
  date: string;
  record_count: number | string;
  storage_bytes: number | string;
  file_count: number | string;
  table_count: number;
  tables_json: string;
  api_calls: number | string | null;
  carried_over: boolean | number;
}

function snapshotRows(dataSource: DataSource) {
  return dataSource
    .createQueryBuilder()
    .select(['date', 'record_count', 'storage_bytes', 'file_count', 'table_count', 'tables_json', 'api_calls', 'carried_over'])
    .from(UsageSnapshot, 's');
}

/** A base's days within `from`–`to` (inclusive), newest or oldest first, at most `limit`. */
export function snapshotRowsOf(
  dataSource: DataSource,
  usageBaseId: string,
  range: { from?: string; to?: string; limit: number; order: 'newest' | 'oldest' },
): Promise<SnapshotRow[]> {
  const qb = snapshotRows(dataSource)
    .where('usage_base_id = :id', { id: usageBaseId })
    .orderBy('date', range.order === 'newest' ? 'DESC' : 'ASC')
    .limit(range.limit);
  if (range.from) qb.andWhere('date >= :from', { from: range.from });
  if (range.to) qb.andWhere('date <= :to', { to: range.to });
  return qb.getRawMany();
}

/** The newest day of each of these bases, in one query. */
export function latestSnapshotRows(
  dataSource: DataSource,
  usageBaseIds: string[],
): Promise<Array<SnapshotRow & { usage_base_id: string }>> {
  return snapshotRows(dataSource)
    .addSelect('usage_base_id')
    .where('usage_base_id IN (:...ids)', { ids: usageBaseIds })
    .andWhere('date = (SELECT MAX(n.date) FROM usage_snapshot n WHERE n.usage_base_id = s.usage_base_id)')
    .getRawMany();
}

/** How many days each of these bases has counted within `from`–`to` (inclusive), on the (base, date) index. */
export async function countedDays(
  dataSource: DataSource,
  usageBaseIds: string[],
  bounds: { from?: string; to?: string },
): Promise<Array<{ id: string; n: number }>> {
  const qb = dataSource
    .createQueryBuilder()
    .select('usage_base_id', 'id')
    .addSelect('COUNT(*)', 'n')
    .from(UsageSnapshot, 's')
    .where('usage_base_id IN (:...ids)', { ids: usageBaseIds })
    .groupBy('usage_base_id');
  if (bounds.from) qb.andWhere('date >= :from', { from: bounds.from });
  if (bounds.to) qb.andWhere('date <= :to', { to: bounds.to });
  return (await qb.getRawMany<{ id: string; n: number | string }>()).map((row) => ({ id: row.id, n: Number(row.n) }));
}
