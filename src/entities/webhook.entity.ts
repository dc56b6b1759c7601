import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

/** Why a webhook stopped being active: deleted by its owner, 410 Gone from the receiver, or failing for too long. */
export type WebhookDeactivationReason = 'deleted' | 'gone' | 'failing';

/** A caller's forwarding webhook: changes of one base (event, table, column) are POSTed, signed, to `webhookUrl`. */
@Entity('webhook')
@Index('ix_webhook_account', ['accountId', 'active', 'baseId'])
@Index('ix_webhook_base', ['baseId', 'accountId', 'active'])
export class Webhook {
  @PrimaryColumn(idColumn())
  id: string;

  @Column(idColumn('account_id'))
  accountId: string;

  @Column({ name: 'base_id', type: 'varchar', length: 32 })
  baseId: string;

  @Column({ type: 'varchar', length: 16 })
  event: string;

  /** "" for table_* events. */
  @Column({ name: 'table_id', type: 'varchar', length: 32 })
  tableId: string;

  @Column({ name: 'column_id', type: 'varchar', length: 32, nullable: true })
  columnId: string | null;

  @Column({ name: 'webhook_url', type: 'varchar', length: 2048 })
  webhookUrl: string;

  @Column({ name: 'coalesce_updates', type: 'boolean' })
  coalesceUpdates: boolean;

  /** The `whsec_…` signing secret, sealed by SecretBox. */
  @Column({ type: 'varchar', length: 200 })
  secret: string;

  /** The secret before the last rotation, still signing (as a second signature) until `previousSecretExpiresAt`. */
  @Column({ name: 'previous_secret', type: 'varchar', length: 200, nullable: true })
  previousSecret: string | null;

  @Column(timestampColumn('previous_secret_expires_at', true))
  previousSecretExpiresAt: Date | null;

  @Column({ type: 'boolean' })
  active: boolean;

  @Column(timestampColumn('deactivated_at', true))
  deactivatedAt: Date | null;

  @Column({ name: 'deactivation_reason', type: 'varchar', length: 16, nullable: true })
  deactivationReason: WebhookDeactivationReason | null;

  /** The first failed attempt since the last success; null while deliveries succeed. */
  @Column(timestampColumn('failing_since', true))
  failingSince: Date | null;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  @Column(timestampColumn('updated_at'))
  updatedAt: Date;
}
