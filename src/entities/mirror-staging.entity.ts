import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { bigintColumn, timestampColumn } from './columns.js';

/** A record as a seed read it, kept until the seed completes and is compared with the mirror. */
@Entity('mirror_seed_record')
export class MirrorSeedRecord {
  @PrimaryColumn({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @PrimaryColumn({ name: 'record_id', type: 'varchar', length: 32 })
  recordId: string;

  @Column({ name: 'table_id', type: 'varchar', length: 32 })
  tableId: string;

  @Column(timestampColumn('created_time'))
  createdTime: Date;

  @Column({ name: 'fields_json', type: 'text' })
  fieldsJson: string;

  /** Files and bytes in its attachment cells, counted as its page arrived. */
  @Column({ name: 'file_count', type: 'integer', default: 0 })
  fileCount: number;

  @Column({ ...bigintColumn('attachment_bytes'), default: 0 })
  attachmentBytes: number;
}

/** A record change that arrived while a seed was reading: applied over the seed's read when it completes. */
@Entity('mirror_pending')
export class MirrorPending {
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq: number;

  @Column({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @Column({ name: 'change_json', type: 'text' })
  changeJson: string;
}
