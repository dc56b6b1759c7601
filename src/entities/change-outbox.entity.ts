import { Column, Entity, PrimaryColumn } from 'typeorm';
import { timestampColumn } from './columns.js';

/**
 * A change entry still to be written into its config's Changes table. `batchToken` marks rows sent in a create
 * request whose answer is not yet stored: after a crash they are looked up in the table before being sent again.
 */
@Entity('change_outbox')
export class ChangeOutbox {
  @PrimaryColumn({ name: 'entry_id', type: 'integer' })
  entryId: number;

  @Column({ name: 'config_id', type: 'varchar', length: 36 })
  configId: string;

  @Column({ name: 'batch_token', type: 'varchar', length: 36, nullable: true })
  batchToken: string | null;

  @Column({ type: 'integer' })
  attempts: number;

  @Column(timestampColumn('next_attempt_at'))
  nextAttemptAt: Date;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;
}
