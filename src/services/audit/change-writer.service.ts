import { randomUUID } from 'node:crypto';
import { In, IsNull, LessThanOrEqual, Not, type DataSource } from 'typeorm';
import { ChangeEntry, ChangeOutbox, MonitoringConfig } from '../../entities/index.js';
import { safeError, type Logger } from '../../logger.js';
import type { UpstreamClient } from '../../upstream/client.js';
import { MAX_RECORDS_PER_WRITE } from '../../upstream/client.js';
import { isUpstreamRequestError } from '../../upstream/upstream-error.js';
import { KeyedMutex } from '../keyed-mutex.js';
import { bumpChangeVersions } from './change-version.js';
import { changesTableRow, ENTRY_ID_FIELD } from './changes-table.js';

/** How long a claimed batch belongs to its writer before it counts as lost (crash) and is looked up. */
const WRITE_LEASE_MS = 10 * 60_000;

export interface ChangeWriterOptions {
  /** First retry delay after a failed write; doubles per attempt up to maxRetryDelayMs. */
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  logger: Logger;
}

export interface DrainResult {
  written: number;
  /** When rows are left waiting for a retry: the earliest retry time. */
  retryAt: Date | null;
}

/**
 * Drains the Changes-table outbox of a config: 10 rows a request (the client keeps the base's rate limit), then
 * each entry's monitoringRecordId is stored and its outbox row deleted in one transaction. Rows of a request whose
 * answer was lost (crash, timeout) carry a batch token; before they are sent again the table is searched for
 * their entry ids, so a row is never written twice. Failures wait with backoff and are tried again: nothing is lost.
 */
export class ChangeWriterService {
  private readonly mutex = new KeyedMutex();

  constructor(
    private readonly dataSource: DataSource,
    private readonly upstream: UpstreamClient,
    private readonly options: ChangeWriterOptions,
  ) {}

  drain(configId: string): Promise<DrainResult> {
    return this.mutex.run(configId, () => this.drainConfig(configId));
  }

  /** Configs with outbox rows, and when their first row is due (the periodic sweep). */
  async pending(): Promise<Array<{ configId: string; dueAt: Date }>> {
    const rows = await this.dataSource
      .getRepository(ChangeOutbox)
      .createQueryBuilder('o')
      .select('o.config_id', 'configId')
      .addSelect('MIN(o.next_attempt_at)', 'dueAt')
      .groupBy('o.config_id')
      .getRawMany<{ configId: string; dueAt: string }>();
    return rows.map((r) => ({ configId: r.configId, dueAt: new Date(r.dueAt) }));
  }

  private async drainConfig(configId: string): Promise<DrainResult> {
    const config = await this.dataSource.getRepository(MonitoringConfig).findOneBy({ id: configId });
    if (!config) return { written: 0, retryAt: null };
    const outbox = this.dataSource.getRepository(ChangeOutbox);
    let written = 0;
    try {
      written += await this.recoverUncertain(config);
    } catch (error) {
      const uncertain = await outbox.findBy({ configId, batchToken: Not(IsNull()), nextAttemptAt: LessThanOrEqual(new Date()) });
      return { written, retryAt: await this.postpone(config, uncertain, error) };
    }
    for (;;) {
      const due = await outbox.find({
        where: { configId, batchToken: IsNull(), nextAttemptAt: LessThanOrEqual(new Date()) },
        order: { entryId: 'ASC' },
        take: MAX_RECORDS_PER_WRITE,
      });
      if (!due.length) {
        const next = await outbox.findOne({ where: { configId }, order: { nextAttemptAt: 'ASC' } });
        return { written, retryAt: next?.nextAttemptAt ?? null };
      }
      const token = randomUUID();
      // Claimed atomically: another process draining the same config skips rows it did not claim.
      await this.dataSource
        .createQueryBuilder()
        .update(ChangeOutbox)
        .set({ batchToken: token, nextAttemptAt: new Date(Date.now() + WRITE_LEASE_MS) })
        .where('entry_id IN (:...ids) AND batch_token IS NULL', { ids: due.map((r) => r.entryId) })
        .execute();
      const claimed = await outbox.find({ where: { batchToken: token }, order: { entryId: 'ASC' } });
      if (!claimed.length) continue;
      const entries = await this.dataSource.getRepository(ChangeEntry).find({
        where: { id: In(claimed.map((r) => r.entryId)) },
        order: { id: 'ASC' },
      });
      try {
        const created = await this.upstream.createRecords(
          config.monitoringBaseId,
          config.monitoringTableId,
          entries.map((e) => ({ fields: changesTableRow(e) })),
        );
        await this.markWritten(config.id, entries.map((e, i) => [e.id, created[i]!.id]));
        written += entries.length;
      } catch (error) {
        const refused = isUpstreamRequestError(error) && (error.upstreamStatus ?? 0) >= 400;
        // A refusal wrote nothing; any other failure may have written the rows, so they keep their token.
        if (refused) await outbox.update({ batchToken: token }, { batchToken: null });
        // A lost answer's write may still land upstream: look for it only after the longest retry delay.
        return { written, retryAt: await this.postpone(config, claimed, error, !refused) };
      }
    }
  }

  /** Rows sent without a stored answer: found in the table → done; not found → sent again like any other. */
  private async recoverUncertain(config: MonitoringConfig): Promise<number> {
    const outbox = this.dataSource.getRepository(ChangeOutbox);
    // Only rows whose lease ran out: a live writer elsewhere may still be waiting for its answer.
    const uncertain = await outbox.findBy({
      configId: config.id,
      batchToken: Not(IsNull()),
      nextAttemptAt: LessThanOrEqual(new Date()),
    });
    if (!uncertain.length) return 0;
    const wanted = new Set(uncertain.map((r) => String(r.entryId)));
    const found: Array<[number, string]> = [];
    const pages = this.upstream.listRecordPages(config.monitoringBaseId, config.monitoringTableId, {
      fields: [ENTRY_ID_FIELD],
    });
    for await (const page of pages) {
      for (const record of page.records) {
        const entryId = record.fields[ENTRY_ID_FIELD];
        if (typeof entryId === 'string' && wanted.has(entryId)) found.push([Number(entryId), record.id]);
      }
    }
    await this.markWritten(config.id, found);
    await outbox.update({ entryId: In(uncertain.map((r) => r.entryId)) }, { batchToken: null });
    this.options.logger.info(
      { configId: config.id, uncertain: uncertain.length, alreadyWritten: found.length },
      'changes table writes recovered',
    );
    return found.length;
  }

  private async markWritten(configId: string, pairs: Array<[number, string]>): Promise<void> {
    if (!pairs.length) return;
    await this.dataSource.transaction(async (manager) => {
      await bumpChangeVersions(manager, [configId]);
      for (const [entryId, recordId] of pairs) {
        await manager.update(ChangeEntry, { id: entryId }, { monitoringRecordId: recordId });
      }
      await manager.delete(ChangeOutbox, { entryId: In(pairs.map(([entryId]) => entryId)) });
    });
  }

  private async postpone(config: MonitoringConfig, rows: ChangeOutbox[], error: unknown, uncertain = false): Promise<Date> {
    const attempts = Math.max(0, ...rows.map((r) => r.attempts)) + 1;
    const backoff = this.options.retryBaseDelayMs * 2 ** (attempts - 1);
    const delay = uncertain ? this.options.maxRetryDelayMs : Math.min(backoff, this.options.maxRetryDelayMs);
    const retryAt = new Date(Date.now() + delay);
    const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    await this.dataSource
      .getRepository(ChangeOutbox)
      .update({ entryId: In(rows.map((r) => r.entryId)) }, { attempts, nextAttemptAt: retryAt, lastError });
    this.options.logger.warn(
      { err: safeError(error), configId: config.id, rows: rows.length, attempts, retryAt: retryAt.toISOString() },
      'changes table write failed; will retry',
    );
    return retryAt;
  }
}
