import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { timestampColumn } from './columns.js';

/**
 * One logged change of one monitoring config: the read model of GET …/changes. The integer id breaks ties of
 * `occurredAt` so keyset paging is total. Indexes (migration 1764000000000): one per filter, each ending in
 * (occurred_at, id) so any filter walks its index in page order.
 */
@Entity('change_entry')
export class ChangeEntry {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'config_id', type: 'varchar', length: 36 })
  configId: string;

  @Column(timestampColumn('occurred_at'))
  occurredAt: Date;

  @Column({ name: 'event_type', type: 'varchar', length: 16 })
  eventType: string;

  @Column({ type: 'varchar', length: 8 })
  kind: string;

  @Column({ name: 'table_id', type: 'varchar', length: 32 })
  tableId: string;

  @Column({ name: 'table_name', type: 'varchar', length: 255 })
  tableName: string;

  @Column({ name: 'record_id', type: 'varchar', length: 32, nullable: true })
  recordId: string | null;

  /** JSON array of field ids; also one change_entry_field row each, for the fieldId filter. */
  @Column({ name: 'field_ids', type: 'text' })
  fieldIds: string;

  @Column({ type: 'varchar', length: 24 })
  source: string;

  @Column({ name: 'user_email', type: 'varchar', length: 255, nullable: true })
  userEmail: string | null;

  @Column({ name: 'user_name', type: 'varchar', length: 255, nullable: true })
  userName: string | null;

  /** JSON object or null. */
  @Column({ name: 'before_json', type: 'text', nullable: true })
  beforeJson: string | null;

  @Column({ name: 'after_json', type: 'text', nullable: true })
  afterJson: string | null;

  @Column({ name: 'monitoring_record_id', type: 'varchar', length: 32, nullable: true })
  monitoringRecordId: string | null;

  /** ChangeEvent.position: a replayed payload hits the unique (config_id, position) and adds nothing. */
  @Column({ type: 'varchar', length: 80 })
  position: string;

  @Column(timestampColumn('logged_at'))
  loggedAt: Date;
}
