import { Column, Entity, PrimaryColumn } from 'typeorm';
import { timestampColumn } from './columns.js';

/** One field touched by a change entry, denormalised with its config and time for the fieldId filter. */
@Entity('change_entry_field')
export class ChangeEntryField {
  @PrimaryColumn({ name: 'entry_id', type: 'integer' })
  entryId: number;

  @PrimaryColumn({ name: 'field_id', type: 'varchar', length: 32 })
  fieldId: string;

  @Column({ name: 'config_id', type: 'varchar', length: 36 })
  configId: string;

  @Column(timestampColumn('occurred_at'))
  occurredAt: Date;
}
