import { Column, Entity, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

export type UpstreamConnectionKind = 'oauth' | 'token';
export type UpstreamConnectionStatus = 'active' | 'needs_reauth';

/** An account's own connection to the upstream platform: an OAuth grant or a personal access token. */
@Entity('upstream_connection')
export class UpstreamConnection {
  /** One connection per account: the account id is the key. */
  @PrimaryColumn(idColumn('account_id'))
  accountId: string;

  @Column({ type: 'varchar', length: 8 })
  kind: UpstreamConnectionKind;

  @Column({ name: 'upstream_user_id', type: 'varchar', length: 32 })
  upstreamUserId: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  email: string | null;

  /** JSON array of granted scopes (OAuth); null for tokens, whose scopes the platform does not tell. */
  @Column({ type: 'text', nullable: true })
  scopes: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: UpstreamConnectionStatus;

  /** The access token (or the personal access token), sealed by SecretBox. */
  @Column({ name: 'access_token', type: 'text' })
  accessToken: string;

  /** The OAuth refresh token, sealed; null for personal access tokens. */
  @Column({ name: 'refresh_token', type: 'text', nullable: true })
  refreshToken: string | null;

  @Column(timestampColumn('access_expires_at', true))
  accessExpiresAt: Date | null;

  @Column(timestampColumn('refresh_expires_at', true))
  refreshExpiresAt: Date | null;

  /** Bumped with every stored token pair: a refresh stores its pair only if nobody stored one since it read. */
  @Column({ name: 'token_version', type: 'integer' })
  tokenVersion: number;

  /** While a process refreshes: others wait for its pair instead of spending the refresh token twice. */
  @Column(timestampColumn('refreshing_until', true))
  refreshingUntil: Date | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError: string | null;

  @Column(timestampColumn('connected_at'))
  connectedAt: Date;

  @Column(timestampColumn('updated_at'))
  updatedAt: Date;
}
