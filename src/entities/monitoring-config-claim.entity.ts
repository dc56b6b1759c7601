import { Column, Entity, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/**
 * A monitoring config being created: held while its Changes table is made upstream, so that a second create of the
 * same base into the same monitoring base (another request, another process) is refused instead of making a second
 * table. Its primary key is the guard; a claim left by a crashed process lapses at `claimedUntil`.
 */
@Entity('monitoring_config_claim')
export class MonitoringConfigClaim {
  @PrimaryColumn(idColumn('account_id'))
  accountId: string;

  @PrimaryColumn({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @PrimaryColumn({ name: 'monitoring_base_id', type: 'varchar', length: 32 })
  monitoringBaseId: string;

  @Column(timestampColumn('claimed_until'))
  claimedUntil: Date;
}
