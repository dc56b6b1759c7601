import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { timestampColumn } from './columns.js';

/** One POST of a delivery: when, the answer's status (null when none came), how long it took, what went wrong. */
@Entity('webhook_delivery_attempt')
export class WebhookDeliveryAttempt {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'delivery_seq', type: 'integer' })
  deliverySeq: number;

  @Column(timestampColumn('attempted_at'))
  attemptedAt: Date;

  @Column({ name: 'status_code', type: 'integer', nullable: true })
  statusCode: number | null;

  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;
}
