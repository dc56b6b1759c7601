import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** A signed-in browser. Only the SHA-256 of its cookie's token is stored. */
@Entity('user_session')
export class UserSession {
  @PrimaryColumn(idColumn())
  id: string;

  @Index('idx_user_session_user')
  @Column(idColumn('user_id'))
  userId: string;

  @Index('uq_user_session_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** The browser's User-Agent when it signed in (cut to 255 characters), so a person can tell sessions apart. */
  @Column({ name: 'user_agent', type: 'varchar', length: 255, nullable: true })
  userAgent: string | null;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  @Column(timestampColumn('last_used_at'))
  lastUsedAt: Date;

  /** Slides: every use more than a few minutes after the last one moves it to 14 days ahead. */
  @Column(timestampColumn('expires_at'))
  expiresAt: Date;

  @Column(timestampColumn('revoked_at', true))
  revokedAt: Date | null;
}
