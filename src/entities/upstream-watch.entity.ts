import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** lost: no account watching the base sees it any more; not read until one does (upkeep, a new demand). */
export type UpstreamWatchStatus = 'active' | 'error' | 'lost';

/** The upstream webhook that watches one base for every account, and how far its payloads have been read. */
@Entity('upstream_watch')
export class UpstreamWatch {
  @PrimaryColumn(idColumn())
  id: string;

  /** The holder: the account whose connection created the webhook and reads it. */
  @Column(idColumn('account_id'))
  accountId: string;

  @Index('uq_upstream_watch_base', { unique: true })
  @Column({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @Index('uq_upstream_watch_webhook', { unique: true })
  @Column({ name: 'webhook_id', type: 'varchar', length: 32 })
  webhookId: string;

  /** The webhook's macSecretBase64, sealed by SecretBox. */
  @Column({ name: 'mac_secret', type: 'varchar', length: 200 })
  macSecret: string;

  /** The cursor of the next payload to read (the platform numbers payloads from 1). */
  @Column({ name: 'payload_cursor', type: 'integer' })
  payloadCursor: number;

  /** JSON object table id → last known name: payloads name a table only when it is created or renamed. */
  @Column({ name: 'table_names', type: 'text' })
  tableNames: string;

  @Column({ type: 'varchar', length: 8 })
  status: UpstreamWatchStatus;

  @Column(timestampColumn('expires_at', true))
  expiresAt: Date | null;

  @Column(timestampColumn('last_read_at', true))
  lastReadAt: Date | null;

  /** The last verified ping: an ingestion that started before it runs once more. */
  @Column(timestampColumn('last_ping_at', true))
  lastPingAt: Date | null;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  /** Since when the log has no gap: set when the upstream webhook was re-created (null: since createdAt). */
  @Column(timestampColumn('continuous_since', true))
  continuousSince: Date | null;

  @Column(timestampColumn('updated_at'))
  updatedAt: Date;
}
