import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** A person who signs in to the web application: the one owner of an account. */
@Entity('app_user')
export class User {
  @PrimaryColumn(idColumn())
  id: string;

  @Index('uq_app_user_account', { unique: true })
  @Column(idColumn('account_id'))
  accountId: string;

  /** Lower case, trimmed: the sign-in name. */
  @Index('uq_app_user_email', { unique: true })
  @Column({ type: 'varchar', length: 320 })
  email: string;

  /** `scrypt$N$r$p$salt$hash`; null until a user made by the CLI sets a password through its link. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  @Column(timestampColumn('password_changed_at', true))
  passwordChangedAt: Date | null;
}
