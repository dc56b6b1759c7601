import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** An upstream base tracked for daily usage counts by one account. */
@Entity('usage_base')
@Index('uq_usage_base_account_base', ['accountId', 'baseId'], { unique: true })
export class UsageBase {
  @PrimaryColumn(idColumn())
  id: string;

  @Column(idColumn('account_id'))
  accountId: string;

  @Column({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @Column({ name: 'base_name', type: 'varchar', length: 255 })
  baseName: string;

  @Column({ name: 'scheduled_hour', type: 'integer' })
  scheduledHour: number;

  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  @Column(timestampColumn('updated_at'))
  updatedAt: Date;

  /**
   * The count lock: the token of the running count and the instant its lock lapses unless renewed. A second count
   * is a 409 across processes too; a crashed process's lock lapses by itself.
   */
  @Column({ name: 'count_lock_token', type: 'varchar', length: 36, nullable: true })
  countLockToken: string | null;

  @Column(timestampColumn('count_lock_until', true))
  countLockUntil: Date | null;

  /** Bumped in the transaction of every snapshot write: rendered snapshot pages are cached under it. */
  @Column({ name: 'snapshot_version', type: 'integer', default: 0 })
  snapshotVersion: number;

  /** With an audit watch of the base, a scheduled count is skipped on a day without changes (CONTRACT §10). */
  @Column({ name: 'count_only_when_changed', type: 'boolean', default: false })
  countOnlyWhenChanged: boolean;
}
