import { Column, Entity, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** A one-time set-password link made by the CLI. Only the SHA-256 of the link's token is stored. */
@Entity('set_password_token')
export class SetPasswordToken {
  @PrimaryColumn({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column(idColumn('user_id'))
  userId: string;

  @Column(timestampColumn('expires_at'))
  expiresAt: Date;

  @Column(timestampColumn('used_at', true))
  usedAt: Date | null;
}
