import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintColumn, timestampColumn } from './columns.js';

/** A mirrored record as it stands now (deleted ones keep their last values). Written with SQL in mirror.repository.ts. */
@Entity('mirror_record')
@Index('ix_mirror_record_deleted', ['baseId', 'tableId', 'deletedAt'])
export class MirrorRecord {
  @PrimaryColumn({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @PrimaryColumn({ name: 'record_id', type: 'varchar', length: 32 })
  recordId: string;

  @Column({ name: 'table_id', type: 'varchar', length: 32 })
  tableId: string;

  @Column(timestampColumn('created_time'))
  createdTime: Date;

  @Column(timestampColumn('deleted_at', true))
  deletedAt: Date | null;

  @Column({ name: 'deleted_by', type: 'varchar', length: 255, nullable: true })
  deletedBy: string | null;

  /** JSON object field id → value, keys sorted, as the upstream's REST API returns cells. */
  @Column({ name: 'fields_json', type: 'text' })
  fieldsJson: string;

  /** Versions kept for the record; every KEYFRAME_EVERY-th stores the whole record (see mirror-versions.ts). */
  @Column({ type: 'integer' })
  versions: number;

  /** Files and bytes in its attachment cells: a count from the mirror is a sum. */
  @Column({ name: 'file_count', type: 'integer' })
  fileCount: number;

  @Column(bigintColumn('attachment_bytes'))
  attachmentBytes: number;
}
