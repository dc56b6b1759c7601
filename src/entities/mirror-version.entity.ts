import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { timestampColumn } from './columns.js';

/**
 * One change of a mirrored record. `keyframe`: `fields_json` is the whole record (baseline, create, every
 * KEYFRAME_EVERY-th version); else only the changed cells (null: cleared). `seq` is the order they were applied in.
 */
@Entity('mirror_version')
@Index('ix_mirror_version_record', ['baseId', 'recordId', 'seq'])
@Index('ix_mirror_version_at', ['baseId', 'at'])
export class MirrorVersion {
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq: number;

  @Column({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @Column({ name: 'record_id', type: 'varchar', length: 32 })
  recordId: string;

  @Column(timestampColumn('at'))
  at: Date;

  @Column({ name: 'event_type', type: 'varchar', length: 16 })
  eventType: string;

  @Column({ type: 'varchar', length: 24 })
  source: string;

  @Column({ name: 'user_email', type: 'varchar', length: 255, nullable: true })
  userEmail: string | null;

  /** 1: `fields_json` is the whole record. */
  @Column({ type: 'integer' })
  keyframe: number;

  @Column({ name: 'fields_json', type: 'text' })
  fieldsJson: string;
}
