import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintColumn, idColumn, timestampColumn } from './columns.js';

/** A tracked base's limits (CONTRACT §10): a plan's or its own, and the thresholds alerts are recorded at. */
@Entity('usage_base_limits')
export class UsageBaseLimits {
  @PrimaryColumn(idColumn('usage_base_id'))
  usageBaseId: string;

  /** free | team | business | enterprise_scale | custom; null: no limits. */
  @Column({ type: 'varchar', length: 20, nullable: true })
  plan: string | null;

  @Column(bigintColumn('record_limit', true))
  recordLimit: number | null;

  @Column(bigintColumn('storage_limit_bytes', true))
  storageLimitBytes: number | null;

  /** JSON array of percents. */
  @Column({ type: 'varchar', length: 100 })
  thresholds: string;

  /** JSON {"records": [80, 95], "storage": []}: the thresholds the last count was at or above (alerts fire on crossing). */
  @Column({ type: 'varchar', length: 200, default: '{}' })
  exceeded: string;

  @Column(timestampColumn('updated_at'))
  updatedAt: Date;
}
