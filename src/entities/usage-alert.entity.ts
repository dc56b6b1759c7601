import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn, idColumn, timestampColumn } from './columns.js';

export type UsageMetric = 'records' | 'storage';

/**
 * A count of a tracked base that crossed one of its thresholds upwards (CONTRACT §10 GET /usage/alerts). `seq` orders
 * the account's alerts for keyset paging; `id` is what the API shows. Gone with the base.
 */
@Entity('usage_alert')
export class UsageAlert {
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq: number;

  @Column(idColumn())
  id: string;

  @Column(idColumn('account_id'))
  accountId: string;

  @Column(idColumn('usage_base_id'))
  usageBaseId: string;

  @Column({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @Column({ type: 'varchar', length: 8 })
  metric: UsageMetric;

  @Column({ type: 'integer' })
  threshold: number;

  @Column(bigintColumn('value'))
  value: number;

  @Column(bigintColumn('limit_value'))
  limit: number;

  /** The counted day, YYYY-MM-DD. */
  @Column({ type: 'varchar', length: 10 })
  date: string;

  @Column(timestampColumn('created_at'))
  createdAt: Date;
}
