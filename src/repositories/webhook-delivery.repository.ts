import type { DataSource } from 'typeorm';
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
