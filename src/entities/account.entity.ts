import { Column, Entity, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

@Entity('account')
export class Account {
  @PrimaryColumn(idColumn())
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column(timestampColumn('created_at'))
  createdAt: Date;
}
