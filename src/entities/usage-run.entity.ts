import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

export type UsageRunStatus = 'running' | 'ok' | 'failed';

/**
 * A scheduled count of a base for one local calendar day. The unique (base, day) pair is what makes a job that
 * fires twice for one day count once; the latest row is the schedule's `lastRun`.
 */
@Entity('usage_run')
@Index('uq_usage_run_base_day', ['usageBaseId', 'localDay'], { unique: true })
export class UsageRun {
  @PrimaryColumn(idColumn())
  id: string;

  @Column(idColumn('usage_base_id'))
  usageBaseId: string;

  @Column({ name: 'local_day', type: 'varchar', length: 10 })
  localDay: string;

  @Column({ type: 'varchar', length: 8 })
  status: UsageRunStatus;

  @Column(timestampColumn('started_at'))
  startedAt: Date;

  @Column(timestampColumn('finished_at', true))
  finishedAt: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;
}
