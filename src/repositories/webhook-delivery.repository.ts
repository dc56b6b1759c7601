import type { DataSource, EntityManager } from 'typeorm';
import { WebhookDelivery, type WebhookDeliveryStatus } from '../entities/index.js';

/** Logged deliveries per webhook (with `status` if given); webhooks without any are absent. */
export async function deliveryCounts(dataSource: DataSource, webhookIds: string[], status?: WebhookDeliveryStatus): Promise<Array<{ id: string; n: number }>> {
  const qb = dataSource
    .createQueryBuilder()
    .select('webhook_id', 'id')
    .addSelect('COUNT(*)', 'n')
    .from(WebhookDelivery, 'd')
    .where('webhook_id IN (:...ids)', { ids: webhookIds })
    .groupBy('webhook_id');
  if (status) qb.andWhere('status = :status', { status });
  return (await qb.getRawMany<{ id: string; n: number | string }>()).map((row) => ({ id: row.id, n: Number(row.n) }));
}

/**
 * Claims a pending, never-attempted delivery for the transaction of `manager` (by touching it), unless a sender holds
 * an unexpired lease on it; true when this update claimed it.
 */
export async function claimUnsentDelivery(manager: EntityManager, seq: number, now: Date): Promise<boolean> {
  const claimed = await manager
    .createQueryBuilder()
    .update(WebhookDelivery)
    .set({ updatedAt: now })
    .where(`seq = :seq AND status = 'pending' AND attempts = 0`, { seq })
    .andWhere('(lease_until IS NULL OR lease_until <= :at)', { at: now.toISOString() })
    .execute();
  return claimed.affected === 1;
}
