import type { DataSource } from 'typeorm';
import { ChangeOutbox, MonitoringConfig } from '../entities/index.js';

/** Each config with rows waiting in the outbox, its account, and when its earliest row is due. */
export async function pendingOutboxConfigs(dataSource: DataSource): Promise<Array<{ configId: string; accountId: string; dueAt: Date }>> {
  const rows = await dataSource
    .getRepository(ChangeOutbox)
    .createQueryBuilder('o')
    .innerJoin(MonitoringConfig, 'c', 'c.id = o.config_id')
    .select('o.config_id', 'configId')
    .addSelect('c.account_id', 'accountId')
    .addSelect('MIN(o.next_attempt_at)', 'dueAt')
    .groupBy('o.config_id')
    .addGroupBy('c.account_id')
    .getRawMany<{ configId: string; accountId: string; dueAt: string }>();
  return rows.map((r) => ({ configId: r.configId, accountId: r.accountId, dueAt: new Date(r.dueAt) }));
}

/** Claims the unclaimed rows of these entries for `token` until `leaseUntil`; rows another drain claimed are left alone. */
export async function claimOutboxRows(dataSource: DataSource, entryIds: number[], token: string, leaseUntil: Date): Promise<void> {
  await dataSource
    .createQueryBuilder()
    .update(ChangeOutbox)
    .set({ batchToken: token, nextAttemptAt: leaseUntil })
    .where('entry_id IN (:...ids) AND batch_token IS NULL', { ids: entryIds })
    .execute();
}

/** Reschedules the config's unclaimed rows and the `failed` ones. */
export async function rescheduleOutboxRows(
  dataSource: DataSource,
  configId: string,
  failed: number[],
  retry: { attempts: number; nextAttemptAt: Date; lastError: string },
): Promise<void> {
  await dataSource
    .createQueryBuilder()
    .update(ChangeOutbox)
    .set(retry)
    .where(`config_id = :configId AND (batch_token IS NULL${failed.length ? ' OR entry_id IN (:...failed)' : ''})`, { configId, failed })
    .execute();
}

/** Moves the config's unclaimed rows due before `retry.nextAttemptAt` to that retry. */
export async function joinOutboxRetry(
  dataSource: DataSource,
  configId: string,
  retry: { attempts: number; nextAttemptAt: Date },
): Promise<void> {
  await dataSource
    .createQueryBuilder()
    .update(ChangeOutbox)
    .set({ attempts: retry.attempts, nextAttemptAt: retry.nextAttemptAt })
    .where('config_id = :configId AND batch_token IS NULL AND next_attempt_at < :retryAt', {
      configId,
      retryAt: retry.nextAttemptAt.toISOString(),
    })
    .execute();
}
