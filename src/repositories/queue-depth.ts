import type { DataSource } from 'typeorm';

export interface QueueDepths {
  /** Change entries still to be written into their config's Changes table. */
  auditOutbox: number;
  /** Webhook deliveries not yet sent or waiting for a retry. */
  webhookDeliveries: number;
}

/**
 * Counted in the shared database at scrape time. Finished outbox rows are deleted, so the outbox is counted whole;
 * pending deliveries are exactly the rows of the partial indexes on `status = 'pending'`, so that count reads one
 * small index, however many finished deliveries the log keeps.
 */
export async function countQueues(dataSource: DataSource): Promise<QueueDepths> {
  const [outbox, deliveries] = await Promise.all([
    dataSource.query('SELECT COUNT(*) AS n FROM change_outbox'),
    dataSource.query(`SELECT COUNT(*) AS n FROM webhook_delivery WHERE status = 'pending'`),
  ]);
  // PostgreSQL returns COUNT(*) as a bigint string.
  return { auditOutbox: Number(outbox[0].n), webhookDeliveries: Number(deliveries[0].n) };
}
