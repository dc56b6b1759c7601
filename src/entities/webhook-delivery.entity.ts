import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { idColumn, timestampColumn } from './columns.js';

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/**
 * One event body to POST to one webhook. `seq` orders deliveries (per webhook and record they go out in this
 * order); `id` is the stable `webhook-id` header. A lease marks a delivery in flight, so that a crashed sender's
 * delivery is taken up again once its lease has passed.
 */
@Entity('webhook_delivery')
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ type: 'integer' })
  seq: number;

  @Index('uq_webhook_delivery_id', { unique: true })
  @Column(idColumn())
  id: string;

  @Column(idColumn('webhook_id'))
  webhookId: string;

  /** The record, the field of a column event, or the table of a table event: one ordered line per key. */
  @Column({ name: 'record_key', type: 'varchar', length: 32 })
  recordKey: string;

  @Column({ name: 'event_type', type: 'varchar', length: 16 })
  eventType: string;

  /** The exact JSON that is signed and sent. */
  @Column({ type: 'text' })
  body: string;

  /** Upstream changes merged into this delivery (coalesced record updates). */
  @Column({ name: 'change_count', type: 'integer' })
  changeCount: number;

  @Column({ type: 'varchar', length: 10 })
  status: WebhookDeliveryStatus;

  /** Attempts made, over the whole life of the delivery. */
  @Column({ type: 'integer' })
  attempts: number;

  /** Failed attempts since the delivery was (re)queued: the position in the retry schedule. */
  @Column({ name: 'retry_step', type: 'integer' })
  retryStep: number;

  @Column(timestampColumn('next_attempt_at'))
  nextAttemptAt: Date;

  /** For a coalescing delivery not yet attempted: later updates merge into it and it waits until at most this. */
  @Column(timestampColumn('coalesce_until', true))
  coalesceUntil: Date | null;

  @Column({ name: 'lease_token', type: 'varchar', length: 36, nullable: true })
  leaseToken: string | null;

  @Column(timestampColumn('lease_until', true))
  leaseUntil: Date | null;

  @Column(timestampColumn('created_at'))
  createdAt: Date;

  @Column(timestampColumn('updated_at'))
  updatedAt: Date;
}
