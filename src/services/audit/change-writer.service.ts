import { randomUUID } from 'node:crypto';
import { In, IsNull, LessThanOrEqual, MoreThan, Not, type DataSource } from 'typeorm';
import { ChangeEntry, ChangeOutbox, MonitoringConfig } from '../../entities/index.js';
import { safeError, type Logger } from '../../logger.js';
import { withCallPurpose } from '../../upstream/call-purpose.js';
import type { UpstreamClient } from '../../upstream/client.js';
import type { UpstreamAccess } from '../connections/upstream-access.js';
import { MAX_RECORDS_PER_WRITE } from '../../upstream/client.js';
import { isUpstreamRequestError } from '../../upstream/upstream-error.js';
import { KeyedMutex } from '../keyed-mutex.js';
import {
  claimOutboxRows,
  joinOutboxRetry,
  pendingOutboxConfigs,
  rescheduleOutboxRows,
} from '../../repositories/change-outbox.repository.js';
import { bumpChangeVersions } from '../../repositories/change-version.js';
import { changesTableRow, ENTRY_ID_FIELD } from './changes-table.js';
import { mayBeMissing, type ConfigHealthService } from './config-health.service.js';

/**
 * A write of 10 rows that has no answer after this long is given up (its rows are then uncertain, as after a lost
 * answer). Retries of refused attempts and rate-limit waits fit in it many times over.
 */
const WRITE_DEADLINE_MS = 2 * 60_000;
/**
 * How long a claimed batch belongs to its writer before it counts as lost (crash) and is looked up: past the
 * deadline of its write, so a live writer never has its batch taken over.
 */
const WRITE_LEASE_MS = WRITE_DEADLINE_MS + 30_000;

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
    private readonly access: UpstreamAccess,
    private readonly health: ConfigHealthService,
    private readonly options: ChangeWriterOptions,
  ) {}

  drain(configId: string): Promise<DrainResult> {
    return withCallPurpose('audit', () => this.mutex.run(configId, () => this.drainConfig(configId)));
  }

  /** Configs with outbox rows, and when their first row is due (the periodic sweep). */
  async pending(): Promise<Array<{ configId: string; accountId: string; dueAt: Date }>> {
    return pendingOutboxConfigs(this.dataSource);
  }

  private async drainConfig(configId: string): Promise<DrainResult> {
    const config = await this.dataSource.getRepository(MonitoringConfig).findOneBy({ id: configId });
    if (!config) return { written: 0, retryAt: null };
    const heldUntil = await this.holdWhileTableMissing(config);
    if (heldUntil) return { written: 0, retryAt: heldUntil };
    // The Changes table is written with the config's account's own connection.
    const upstream = await this.access.forAccount(config.accountId);
    const outbox = this.dataSource.getRepository(ChangeOutbox);
    let written = 0;
    try {
      written += await this.recoverUncertain(upstream, config);
    } catch (error) {
      const uncertain = await outbox.findBy({ configId, batchToken: Not(IsNull()), nextAttemptAt: LessThanOrEqual(new Date()) });
      return { written, retryAt: await this.failed(config, uncertain, error) };
    }
    for (;;) {
      const due = await outbox.find({
        where: { configId, batchToken: IsNull(), nextAttemptAt: LessThanOrEqual(new Date()) },
        order: { entryId: 'ASC' },
        take: MAX_RECORDS_PER_WRITE,
      });
      if (!due.length) {
        if (written) await this.health.writeSucceeded(config);
        const next = await outbox.findOne({ where: { configId }, order: { nextAttemptAt: 'ASC' } });
        return { written, retryAt: next?.nextAttemptAt ?? null };
      }
      const token = randomUUID();
      // Claimed atomically: another process draining the same config skips rows it did not claim.
      await claimOutboxRows(
        this.dataSource,
        due.map((r) => r.entryId),
        token,
        new Date(Date.now() + WRITE_LEASE_MS),
      );
      const claimed = await outbox.find({ where: { batchToken: token }, order: { entryId: 'ASC' } });
      if (!claimed.length) continue;
      const entries = await this.dataSource.getRepository(ChangeEntry).find({
        where: { id: In(claimed.map((r) => r.entryId)) },
        order: { id: 'ASC' },
      });
      try {
        const created = await upstream.createRecords(
          config.monitoringBaseId,
          config.monitoringTableId,
          entries.map((e) => ({ fields: changesTableRow(e) })),
          {},
          AbortSignal.timeout(WRITE_DEADLINE_MS),
        );
        await this.markWritten(
          config.id,
          entries.map((e, i) => [e.id, created[i]!.id]),
        );
        written += entries.length;
      } catch (error) {
        const refused = isUpstreamRequestError(error) && (error.upstreamStatus ?? 0) >= 400;
        // A refusal wrote nothing; any other failure may have written the rows, so they keep their token.
        if (refused) await outbox.update({ batchToken: token }, { batchToken: null });
        if (written) await this.health.writeSucceeded(config);
        // A lost answer's write may still land upstream: look for it only after the longest retry delay.
        return { written, retryAt: await this.failed(config, claimed, error, !refused) };
      }
    }
  }

  /** Rows sent without a stored answer: found in the table → done; not found → sent again like any other. */
  private async recoverUncertain(upstream: UpstreamClient, config: MonitoringConfig): Promise<number> {
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
    const pages = upstream.listRecordPages(config.monitoringBaseId, config.monitoringTableId, {
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

  /**
   * A failed write waits with backoff. When the table (or its base) may be gone, every row of the config waits on
   * one retry, so rows logged meanwhile do not each knock again; the config's status says what was found.
   */
  private async failed(config: MonitoringConfig, rows: ChangeOutbox[], error: unknown, uncertain = false): Promise<Date> {
    const missing = mayBeMissing(error);
    const retryAt = missing ? await this.postponeAll(config, rows, error) : await this.postpone(rows, error, uncertain);
    const previous = config.status;
    await this.health.writeFailed(config, error);
    // The status change was logged as a warning; repeats of the same state are routine.
    const level = previous === config.status ? 'info' : 'debug';
    this.options.logger[level](
      { err: safeError(error), configId: config.id, rows: rows.length, status: config.status, retryAt: retryAt.toISOString() },
      'changes table write failed; will retry',
    );
    return retryAt;
  }

  private async postpone(rows: ChangeOutbox[], error: unknown, uncertain: boolean): Promise<Date> {
    const attempts = Math.max(0, ...rows.map((r) => r.attempts)) + 1;
    const retryAt = this.retryTime(attempts, uncertain);
    await this.dataSource
      .getRepository(ChangeOutbox)
      .update({ entryId: In(rows.map((r) => r.entryId)) }, { attempts, nextAttemptAt: retryAt, lastError: messageOf(error) });
    return retryAt;
  }

  /** The failed rows and every unclaimed row of the config wait for one retry (a live claim elsewhere keeps its lease). */
  private async postponeAll(config: MonitoringConfig, rows: ChangeOutbox[], error: unknown): Promise<Date> {
    const outbox = this.dataSource.getRepository(ChangeOutbox);
    const latest = await outbox.findOne({ where: { configId: config.id }, order: { attempts: 'DESC' } });
    const attempts = (latest?.attempts ?? 0) + 1;
    const retryAt = this.retryTime(attempts, false);
    const failed = rows.map((r) => r.entryId);
    await rescheduleOutboxRows(this.dataSource, config.id, failed, { attempts, nextAttemptAt: retryAt, lastError: messageOf(error) });
    return retryAt;
  }

  /**
   * While the Changes table is known to be missing and its retry is not due, rows logged meanwhile join that retry
   * instead of being sent (and refused) one batch at a time. Returns the retry time, or null to write now. Times
   * are compared as ISO text in SQL: a Date in an update's criteria would skip the column's transformer.
   */
  private async holdWhileTableMissing(config: MonitoringConfig): Promise<Date | null> {
    if (config.status !== 'changes_table_missing') return null;
    const outbox = this.dataSource.getRepository(ChangeOutbox);
    const waiting = await outbox.findOne({
      where: { configId: config.id, batchToken: IsNull(), attempts: MoreThan(0) },
      order: { nextAttemptAt: 'ASC' },
    });
    if (!waiting || waiting.nextAttemptAt <= new Date()) return null;
    await joinOutboxRetry(this.dataSource, config.id, waiting);
    return waiting.nextAttemptAt;
  }

  private retryTime(attempts: number, uncertain: boolean): Date {
    const backoff = this.options.retryBaseDelayMs * 2 ** (attempts - 1);
    const delay = uncertain ? this.options.maxRetryDelayMs : Math.min(backoff, this.options.maxRetryDelayMs);
    return new Date(Date.now() + delay);
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}
