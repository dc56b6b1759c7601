import type { DataSource, EntityManager } from 'typeorm';
import { WebhookDelivery, type WebhookDeliveryStatus } from '../entities/index.js';
import { runSql } from './run-sql.js';

/** Logged deliveries per webhook (with `status` if given); webhooks without any are absent. */
export async function deliveryCounts(
  dataSource: DataSource,
  webhookIds: string[],
  status?: WebhookDeliveryStatus,
): Promise<Array<{ id: string; n: number }>> {
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

/** Counts an attempt on a delivery still leased with `token` and schedules its next one at `at` (ISO text). */
export async function rescheduleLeasedDelivery(
  manager: EntityManager,
  leased: { seq: number; token: string },
  retry: { step: number; at: string; now: string },
): Promise<void> {
  await runSql(
    manager,
    `UPDATE webhook_delivery SET attempts = attempts + 1, retry_step = :step, next_attempt_at = :at, lease_token = NULL,
       lease_until = NULL, updated_at = :now WHERE seq = :seq AND lease_token = :token`,
    { ...retry, seq: leased.seq, token: leased.token },
  );
}

/** Ends deliveries still leased by these tokens (a DELETE in the meantime may have ended them already). */
export async function finishLeasedDeliveries(
  manager: EntityManager,
  status: 'succeeded' | 'failed',
  now: string,
  seqs: number[],
  tokens: string[],
): Promise<void> {
  await runSql(
    manager,
    `UPDATE webhook_delivery SET status = :status, attempts = attempts + 1, next_attempt_at = :now, lease_token = NULL,
       lease_until = NULL, updated_at = :now WHERE seq IN (:...seqs) AND lease_token IN (:...tokens)`,
    { status, now, seqs, tokens },
  );
}

/** Clears the webhooks' failing-since. */
export async function clearFailingSince(manager: EntityManager, webhookIds: string[]): Promise<void> {
  await runSql(manager, 'UPDATE webhook SET failing_since = NULL WHERE id IN (:...ids) AND failing_since IS NOT NULL', { ids: webhookIds });
}

/** Sets the webhooks' failing-since to `now` where unset, and answers each one's failing-since. */
export async function markFailingSince(manager: EntityManager, webhookIds: string[], now: string): Promise<Map<string, string>> {
  await runSql(manager, 'UPDATE webhook SET failing_since = :now WHERE id IN (:...ids) AND failing_since IS NULL', {
    now,
    ids: webhookIds,
  });
  const rows = await runSql<Array<{ id: string; failing_since: string | null }>>(
    manager,
    'SELECT id, failing_since FROM webhook WHERE id IN (:...ids)',
    {
      ids: webhookIds,
    },
  );
  return new Map(rows.filter((r) => r.failing_since).map((r) => [r.id, r.failing_since!]));
}
