import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintColumn, idColumn, timestampColumn } from './columns.js';

export interface TableCount {
  tableId: string;
  tableName: string;
  recordCount: number;
  storageBytes: number;
  fileCount: number;
}

/**
 * One counted day of a usage base: the day's totals and its per-table rows. The per-table rows are kept as a
 * JSON array in the day's row because they are only ever read and written with their day, and a year of a
 * 50-table base (18,250 rows) must be served in a few milliseconds.
 */
@Entity('usage_snapshot')
@Index('uq_usage_snapshot_base_date', ['usageBaseId', 'date'], { unique: true })
export class UsageSnapshot {
  @PrimaryColumn(idColumn())
  id: string;

  @Column(idColumn('usage_base_id'))
  usageBaseId: string;

  /** The calendar day in the base's time zone, YYYY-MM-DD (sorts as text). */
  @Column({ type: 'varchar', length: 10 })
  date: string;

  @Column(bigintColumn('record_count'))
  recordCount: number;

  @Column(bigintColumn('storage_bytes'))
  storageBytes: number;

  @Column(bigintColumn('file_count'))
  fileCount: number;

  @Column({ name: 'table_count', type: 'integer' })
  tableCount: number;

  /** JSON array of TableCount, in upstream table order. */
  @Column({ name: 'tables_json', type: 'text' })
  tablesJson: string;

  @Column(timestampColumn('counted_at'))
  countedAt: Date;

  /** Upstream requests the day's count spent; null: counted before they were counted. */
  @Column({ name: 'api_calls', type: 'integer', nullable: true })
  apiCalls: number | null;

  /** No count was needed (countOnlyWhenChanged, no logged change): the previous day's figures carried over. */
  @Column({ name: 'carried_over', type: 'boolean', default: false })
  carriedOver: boolean;

  /** Counted from the base's live mirror (a query on our database) rather than by listing the upstream's records. */
  @Column({ name: 'from_mirror', type: 'boolean', default: false })
  fromMirror: boolean;

  /** When the day's count started (null: before this was kept); a change after it may be missing from the count. */
  @Column(timestampColumn('count_started_at', true))
  countStartedAt: Date | null;
}
