import { randomUUID } from 'node:crypto';
import { In, type DataSource } from 'typeorm';
import { Webhook, WebhookDelivery, WebhookDeliveryAttempt } from '../entities/index.js';
import { runSql } from './run-sql.js';

/** A delivery this process leased for one attempt, with its webhook as it was when leased. */
export interface LeasedDelivery {
  delivery: Pick<WebhookDelivery, 'seq' | 'id' | 'webhookId' | 'body' | 'retryStep'>;
  webhook: Webhook;
  token: string;
}

/**
 * The queries of the delivery outbox. Rows are the truth: a delivery is due when it is pending, its time has
 * come, nobody holds a live lease on it, and no earlier delivery of the same webhook and record is pending.
 */
export class DeliveryStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Leases up to `limit` due deliveries, oldest due first: the heads of their (webhook, record) lines only. */
  async leaseDue(limit: number, leaseMs: number, now = new Date()): Promise<LeasedDelivery[]> {
    const at = now.toISOString();
    const due = await runSql<Array<{ seq: number }>>(
      this.dataSource,
      `SELECT d.seq FROM webhook_delivery d
        WHERE d.status = 'pending' AND d.next_attempt_at <= :at AND (d.lease_until IS NULL OR d.lease_until <= :at)
          AND NOT EXISTS (SELECT 1 FROM webhook_delivery e WHERE e.webhook_id = d.webhook_id
                          AND e.record_key = d.record_key AND e.status = 'pending' AND e.seq < d.seq)
        ORDER BY d.next_attempt_at, d.seq LIMIT ${Math.max(1, Math.floor(limit))}`,
      { at },
    );
    if (!due.length) return [];
    const token = randomUUID();
    const seqs = due.map((r) => Number(r.seq));
    // Conditional, so that of two processes leasing the same rows each row goes to one.
    await runSql(
      this.dataSource,
      `UPDATE webhook_delivery SET lease_token = :token, lease_until = :until
        WHERE seq IN (:...seqs) AND status = 'pending' AND (lease_until IS NULL OR lease_until <= :at)`,
      { token, until: new Date(now.getTime() + leaseMs).toISOString(), seqs, at },
    );
    const rows = await runSql<Array<{ seq: number; id: string; webhook_id: string; body: string; retry_step: number }>>(
      this.dataSource,
      `SELECT seq, id, webhook_id, body, retry_step FROM webhook_delivery WHERE seq IN (:...seqs) AND lease_token = :token ORDER BY seq`,
      { seqs, token },
    );
    if (!rows.length) return [];
    const webhooks = await this.dataSource.getRepository(Webhook).findBy({ id: In([...new Set(rows.map((r) => r.webhook_id))]) });
    const byId = new Map(webhooks.map((w) => [w.id, w]));
    return rows.map((row) => ({
      delivery: { seq: Number(row.seq), id: row.id, webhookId: row.webhook_id, body: row.body, retryStep: Number(row.retry_step) },
      webhook: byId.get(row.webhook_id)!,
      token,
    }));
  }

  /** A delivery leased for a webhook that is no longer active: failed without an attempt. */
  async dropInactive(leased: LeasedDelivery): Promise<void> {
    await this.dataSource
      .getRepository(WebhookDelivery)
      .update(
        { seq: leased.delivery.seq, leaseToken: leased.token },
        { status: 'failed', leaseToken: null, leaseUntil: null, updatedAt: new Date() },
      );
  }

  /** The earliest time after `now` a pending delivery falls due (retries, coalescing windows); null when none. */
  async nextDueAt(now = new Date()): Promise<Date | null> {
    const row = await this.dataSource
      .getRepository(WebhookDelivery)
      .createQueryBuilder('d')
      .select('MIN(d.next_attempt_at)', 'next')
      .where(`d.status = 'pending'`)
      .andWhere('d.next_attempt_at > :at', { at: now.toISOString() })
      .getRawOne<{ next: string | null }>();
    return row?.next ? new Date(row.next) : null;
  }

  /** Deletes finished deliveries (and their attempts) last touched before `before`; returns how many. */
  async prune(before: Date, limit = 1_000): Promise<number> {
    const rows = await this.dataSource
      .getRepository(WebhookDelivery)
      .createQueryBuilder('d')
      .select('d.seq', 'seq')
      .where(`d.status <> 'pending'`)
      .andWhere('d.updated_at < :before', { before: before.toISOString() })
      .limit(limit)
      .getRawMany<{ seq: number }>();
    if (!rows.length) return 0;
    const seqs = rows.map((r) => Number(r.seq));
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(WebhookDeliveryAttempt, { deliverySeq: In(seqs) });
      await manager.delete(WebhookDelivery, { seq: In(seqs) });
    });
    return seqs.length;
  }
}
