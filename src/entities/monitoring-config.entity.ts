import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** Ties a monitored base to the Changes table (in a monitoring base) that receives its audit log. */
@Entity('monitoring_config')
@Index('uq_monitoring_config_target', ['accountId', 'baseId', 'monitoringTableId'], { unique: true })
@Index('ix_monitoring_config_base', ['accountId', 'baseId'])
@Index('ix_monitoring_config_monitoring_base', ['monitoringBaseId'])
export class MonitoringConfig {
  @PrimaryColumn(idColumn())
  id: string;

  @Column(idColumn('account_id'))
  accountId: string;

  @Column({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @Column({ name: 'base_name', type: 'varchar', length: 255 })
  baseName: string;

  @Column({ name: 'workspace_id', type: 'varchar', length: 32 })
  workspaceId: string;

  @Column({ name: 'monitoring_base_id', type: 'varchar', length: 32 })
  monitoringBaseId: string;

  @Column({ name: 'monitoring_base_name', type: 'varchar', length: 255 })
  monitoringBaseName: string;

  @Column({ name: 'monitoring_table_id', type: 'varchar', length: 32 })
  monitoringTableId: string;

  @Column({ name: 'monitoring_table_name', type: 'varchar', length: 255 })
  monitoringTableName: string;

  @Column({ type: 'varchar', length: 16 })
  scope: string;

  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  /** Bumped by every write to this config's change entries: a rendered change page is kept under it. */
  @Column({ name: 'changes_version', type: 'integer', default: 0 })
  changesVersion: number;

  /** Whether the monitored base and the Changes table are still there upstream (GET …/status); not in the REST shape. */
  @Column({ type: 'varchar', length: 32, default: 'ok' })
  status: string;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  /** When the writer or the upkeep last established the status; null: never checked since the config was made. */
  @Column(timestampColumn('status_checked_at', true))
  statusCheckedAt: Date | null;

  /** When changes of the base were last left out of this log (account paused, base missing): it is not complete since. */
  @Column(timestampColumn('log_gap_at', true))
  logGapAt: Date | null;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  @Column(timestampColumn('updated_at'))
  updatedAt: Date;
}
