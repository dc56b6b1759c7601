import type { DataSource, Repository } from 'typeorm';
import { UsageBase, type TableCount } from '../entities/index.js';
import { conflict, notFound, unavailable } from '../errors.js';
import { withCallPurpose, type CallTally } from '../upstream/call-purpose.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamAccess } from './connections/upstream-access.js';
import type { UpstreamTable } from '../upstream/types.js';
import { localDay } from './calendar.js';
import { CountLock } from '../repositories/count-lock.js';
import type { SnapshotService } from './snapshot.service.js';
import type { UsageBaseService } from './usage-base.service.js';

export interface RunResult {
  status: 'success';
  tablesProcessed: number;
  totalRecords: number;
  totalAttachmentBytes: number;
  totalFileCount: number;
  snapshotDate: string;
}

/** Told after every full count was recorded (the mirror compares itself with it). Must not throw. */
export type FullCountListener = (base: UsageBase, tables: TableCount[], startedAt: Date) => Promise<void>;

export interface UsageCountOptions {
  /** How long a count's lock outlives a process that died holding it. */
  lockTtlMs: number;
  now?: () => Date;
}

/**
 * Counts the records and attachment storage of a tracked base (ARCHITECTURE flow 2). Only attachment fields are
 * fetched (the primary field when a table has none), tables are listed in parallel under the per-base limiter,
 * and the day is written only after every table was counted, so a failed count leaves the previous snapshot as it was.
 */
export class UsageCountService {
  private readonly repository: Repository<UsageBase>;
  private readonly running = new Map<Promise<unknown>, AbortController>();
  private accepting = true;
  private readonly fullCountListeners: FullCountListener[] = [];
  private readonly now: () => Date;

  constructor(
    dataSource: DataSource,
    private readonly bases: UsageBaseService,
    private readonly snapshots: SnapshotService,
    private readonly access: UpstreamAccess,
    private readonly options: UsageCountOptions,
  ) {
    this.repository = dataSource.getRepository(UsageBase);
    this.now = options.now ?? (() => new Date());
  }

  async count(accountId: string, usageBaseId: string): Promise<RunResult> {
    return this.countTracked(await this.bases.get(accountId, usageBaseId));
  }

  /**
   * Counts a base already loaded (the daily job's entry point). Shutdown refuses new requests' counts; a job's goes on,
   * as the shutdown waits for the jobs that started before it (and abandons their counts only at its deadline).
   */
  async countTracked(base: UsageBase, origin: 'request' | 'job' = 'request'): Promise<RunResult> {
    if (!this.accepting && origin === 'request') throw unavailable('The service is shutting down');
    const lock = await CountLock.acquire(this.repository, base.id, this.options.lockTtlMs);
    if (!lock) {
      const lapse = Math.ceil(this.options.lockTtlMs / 1000);
      throw conflict(`A count of this base is already running (a count cut off by a crash or kill holds it for at most ${lapse} s)`);
    }
    const controller = new AbortController();
    // An abandoned count fails with the reason it was abandoned for (shutdown: unavailable), whatever the upstream
    // call in flight made of the abort.
    // Every request of the count, retries included, is what the day's count cost (shown with its snapshot).
    const tally = { calls: 0 };
    const run = withCallPurpose('count', () => this.countBase(base, controller, tally), tally)
      .catch(async (error: unknown) => {
        const reason: unknown = controller.signal.aborted ? controller.signal.reason : error;
        // The connection no longer sees the base: not_found, as on every other endpoint, and marked so in the lists.
        if (await this.access.lostOn(reason, base.accountId, base.baseId)) throw notFound('Usage base');
        throw reason;
      })
      .finally(() => lock.release());
    this.running.set(run, controller);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  }

  onFullCount(listener: FullCountListener): void {
    this.fullCountListeners.push(listener);
  }

  /** Stops new counts and waits for the running ones (graceful shutdown). */
  async drain(): Promise<void> {
    this.accepting = false;
    await Promise.allSettled([...this.running.keys()]);
  }

  /**
   * Abandons the counts still running (the shutdown deadline passed); each releases its lock as it stops and fails
   * with `unavailable`. Returns how many were abandoned.
   */
  async abort(): Promise<number> {
    this.accepting = false;
    const running = [...this.running];
    for (const [, controller] of running) controller.abort(unavailable('The service is shutting down: the count was abandoned'));
    await Promise.allSettled(running.map(([run]) => run));
    return running.length;
  }

  private async countBase(base: UsageBase, controller: AbortController, tally: CallTally): Promise<RunResult> {
    const startedAt = this.now();
    const { signal } = controller;
    const upstream = await this.access.forAccount(base.accountId);
    const tables = await upstream.getBaseSchema(base.baseId, signal);
    // The first table that fails for good stops the others: their requests would only spend the base's budget.
    const counts = await Promise.all(
      tables.map((table) =>
        this.countTable(upstream, base.baseId, table, signal).catch((error: unknown) => {
          controller.abort(error);
          throw error;
        }),
      ),
    );
    const date = localDay(startedAt, base.timezone);
    const day = await this.snapshots.record(base.id, date, counts, this.now(), { apiCalls: tally.calls, startedAt });
    for (const listener of this.fullCountListeners) await listener(base, counts, startedAt);
    return {
      status: 'success',
      tablesProcessed: day.totals.tableCount,
      totalRecords: day.totals.recordCount,
      totalAttachmentBytes: day.totals.storageBytes,
      totalFileCount: day.totals.fileCount,
      snapshotDate: day.date,
    };
  }

  private async countTable(upstream: UpstreamClient, baseId: string, table: UpstreamTable, signal: AbortSignal): Promise<TableCount> {
    const attachmentFieldIds = table.fields.filter((f) => f.type === 'multipleAttachments').map((f) => f.id);
    const fields = attachmentFieldIds.length > 0 ? attachmentFieldIds : [table.primaryFieldId];
    const count: TableCount = { tableId: table.id, tableName: table.name, recordCount: 0, storageBytes: 0, fileCount: 0 };
    const options = { fields, returnFieldsByFieldId: true, pageSize: 100 };
    const pages = upstream.listRecordPages(baseId, table.id, options, signal);
    for await (const page of pages) {
      if (page.restarted) Object.assign(count, { recordCount: 0, storageBytes: 0, fileCount: 0 });
      count.recordCount += page.records.length;
      for (const record of page.records) {
        for (const fieldId of attachmentFieldIds) {
          const cell = record.fields[fieldId];
          if (!Array.isArray(cell)) continue;
          count.fileCount += cell.length;
          for (const attachment of cell) count.storageBytes += attachmentSize(attachment);
        }
      }
    }
    return count;
  }
}

/** Bytes of one attachment; a missing size (still processing upstream) counts as 0. */
function attachmentSize(attachment: unknown): number {
  const size = (attachment as { size?: unknown } | null)?.size;
  return typeof size === 'number' && Number.isFinite(size) && size > 0 ? size : 0;
}
