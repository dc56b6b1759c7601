import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** An API key of an account. Only the SHA-256 of the key is stored; the key itself is shown once. */
@Entity('api_key')
export class ApiKey {
  @PrimaryColumn(idColumn())
  id: string;

  @Index('idx_api_key_account')
  @Column(idColumn('account_id'))
  accountId: string;

  @Index('uq_api_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  /** The first characters of the key, enough for a person to tell keys apart in a list. */
  @Column({ name: 'key_prefix', type: 'varchar', length: 16 })
  keyPrefix: string;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  @Column(timestampColumn('revoked_at', true))
  revokedAt: Date | null;

  /** Given when the key is made in the web application; keys of the CLI have none. */
  @Column({ name: 'name', type: 'varchar', length: 100, nullable: true })
  name: string | null;

  @Column(timestampColumn('last_used_at', true))
  lastUsedAt: Date | null;
}
