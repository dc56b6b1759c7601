import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

export type RestoreStatus = 'planned' | 'running' | 'done' | 'failed';

/**
 * A restore of mirrored records (CONTRACT §11), run as a job. `plan_json` holds every write, in order; `done`
 * counts the writes confirmed; `in_flight_json` is the batch of creates sent and not yet confirmed, so a resumed run
 * can tell which of them the upstream made before a crash.
 */
@Entity('mirror_restore')
@Index('ix_mirror_restore_config', ['configId', 'createdAt'])
export class MirrorRestore {
  @PrimaryColumn(idColumn())
  id: string;

  @Column(idColumn('config_id'))
  configId: string;

  @Column(idColumn('account_id'))
  accountId: string;

  @Column({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @Column({ name: 'table_id', type: 'varchar', length: 32 })
  tableId: string;

  @Column(timestampColumn('at'))
  at: Date;

  @Column({ type: 'varchar', length: 8 })
  status: RestoreStatus;

  @Column({ name: 'plan_json', type: 'text' })
  planJson: string;

  @Column({ type: 'integer' })
  done: number;

  @Column({ type: 'integer' })
  total: number;

  @Column({ name: 'create_count', type: 'integer' })
  createCount: number;

  @Column({ name: 'update_count', type: 'integer' })
  updateCount: number;

  @Column({ name: 'skipped_field_ids', type: 'text' })
  skippedFieldIds: string;

  /** JSON object old record id → new record id. */
  @Column({ name: 'created_record_ids', type: 'text' })
  createdRecordIds: string;

  @Column({ name: 'in_flight_json', type: 'text', nullable: true })
  inFlightJson: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  @Column(timestampColumn('finished_at', true))
  finishedAt: Date | null;
}
