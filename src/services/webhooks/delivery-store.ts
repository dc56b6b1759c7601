import { randomUUID } from 'node:crypto';
import { In, IsNull, type DataSource, type EntityManager } from 'typeorm';
import { Webhook, WebhookDelivery, WebhookDeliveryAttempt, type WebhookDeactivationReason } from '../../entities/index.js';
import type { SendResult } from './http-sender.js';
import type { AttemptOutcome } from './retry-policy.js';

/** A delivery this process leased for one attempt, with its webhook as it was when leased. */
export interface LeasedDelivery {
  delivery: WebhookDelivery;
  webhook: Webhook;
  token: string;
}

const ERROR_LENGTH = 500;

/**
 * The queries of the delivery outbox. Rows are the truth: a delivery is due when it is pending, its time has
 * come, nobody holds a live lease on it, and no earlier delivery of the same webhook and record is pending.
 */
export class DeliveryStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Leases up to `limit` due deliveries, oldest due first: the heads of their (webhook, record) lines only. */
  async leaseDue(limit: number, leaseMs: number, now = new Date()): Promise<LeasedDelivery[]> {
    const at = now.toISOString();
    const rows = await this.dataSource
      .getRepository(WebhookDelivery)
      .createQueryBuilder('d')
      .select('d.seq', 'seq')
      .where(`d.status = 'pending'`)
      .andWhere('d.next_attempt_at <= :at', { at })
      .andWhere('(d.lease_until IS NULL OR d.lease_until <= :at)')
      .andWhere(
        `NOT EXISTS (SELECT 1 FROM webhook_delivery e WHERE e.webhook_id = d.webhook_id AND e.record_key = d.record_key` +
          ` AND e.status = 'pending' AND e.seq < d.seq)`,
      )
      .orderBy('d.next_attempt_at', 'ASC')
      .addOrderBy('d.seq', 'ASC')
      .limit(limit)
      .getRawMany<{ seq: number }>();
    if (!rows.length) return [];
    const token = randomUUID();
    // Conditional, so that of two processes leasing the same rows each row goes to one.
    await this.dataSource
      .createQueryBuilder()
      .update(WebhookDelivery)
      .set({ leaseToken: token, leaseUntil: new Date(now.getTime() + leaseMs) })
      .where('seq IN (:...seqs)', { seqs: rows.map((r) => Number(r.seq)) })
      .andWhere(`status = 'pending'`)
      .andWhere('(lease_until IS NULL OR lease_until <= :at)', { at })
      .execute();
    const leased = await this.dataSource.getRepository(WebhookDelivery).find({
      where: { seq: In(rows.map((r) => Number(r.seq))), leaseToken: token },
      order: { seq: 'ASC' },
    });
    if (!leased.length) return [];
    const webhooks = await this.dataSource.getRepository(Webhook).findBy({ id: In([...new Set(leased.map((d) => d.webhookId))]) });
    const byId = new Map(webhooks.map((w) => [w.id, w]));
    return leased.map((delivery) => ({ delivery, webhook: byId.get(delivery.webhookId)!, token }));
  }

  /**
   * Stores an attempt and where it leaves the delivery and its webhook, in one transaction. Returns the reason the
   * webhook must now be deactivated, if any.
   */
  async record(
    leased: LeasedDelivery,
    attemptedAt: Date,
    result: SendResult,
    outcome: AttemptOutcome,
    disableAfterMs: number,
  ): Promise<WebhookDeactivationReason | null> {
    const { delivery, webhook, token } = leased;
    const now = new Date();
    return this.dataSource.transaction(async (manager) => {
      await manager.insert(WebhookDeliveryAttempt, {
        deliverySeq: delivery.seq,
        attemptedAt,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error?.slice(0, ERROR_LENGTH) ?? null,
      });
      await manager
        .createQueryBuilder()
        .update(WebhookDelivery)
        .set({
          status: outcome.kind === 'retry' ? 'pending' : outcome.kind === 'succeeded' ? 'succeeded' : 'failed',
          attempts: () => 'attempts + 1',
          retryStep: outcome.kind === 'retry' ? delivery.retryStep + 1 : delivery.retryStep,
          nextAttemptAt: outcome.kind === 'retry' ? new Date(now.getTime() + outcome.delayMs) : now,
          leaseToken: null,
          leaseUntil: null,
          updatedAt: now,
        })
        .where('seq = :seq AND lease_token = :token', { seq: delivery.seq, token })
        .execute();
      if (outcome.kind === 'succeeded') {
        if (webhook.failingSince) await this.clearFailing(manager, webhook);
        return null;
      }
      if (outcome.kind === 'gone') return 'gone';
      webhook.failingSince ??= attemptedAt;
      await manager.update(Webhook, { id: webhook.id, failingSince: IsNull() }, { failingSince: webhook.failingSince });
      return now.getTime() - webhook.failingSince.getTime() >= disableAfterMs ? 'failing' : null;
    });
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

  /** The earliest future time a pending delivery falls due (retries, coalescing windows); null when none. */
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

  private async clearFailing(manager: EntityManager, webhook: Webhook): Promise<void> {
    webhook.failingSince = null;
    await manager.update(Webhook, { id: webhook.id }, { failingSince: null });
  }
}
