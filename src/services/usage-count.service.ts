import type { DataSource, Repository } from 'typeorm';
import { UsageBase, type TableCount } from '../entities/index.js';
import { conflict, unavailable } from '../errors.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamTable } from '../upstream/types.js';
import { localDay } from './calendar.js';
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

export interface UsageCountOptions {
  /** A count lock older than this is taken to belong to a crashed process and may be taken over. */
  lockStaleMs: number;
  now?: () => Date;
}

/**
 * Counts the records and attachment storage of a tracked base (ARCHITECTURE flow 2). Only attachment fields are
 * fetched (the primary field when a table has none), tables are listed in parallel under the per-base limiter,
 * and the day is written only after every table was counted, so a failed count leaves the previous snapshot as it was.
 */
export class UsageCountService {
  private readonly repository: Repository<UsageBase>;
  private readonly running = new Set<Promise<unknown>>();
  private accepting = true;
  private readonly now: () => Date;

  constructor(
    dataSource: DataSource,
    private readonly bases: UsageBaseService,
    private readonly snapshots: SnapshotService,
    private readonly upstream: UpstreamClient,
    private readonly options: UsageCountOptions,
  ) {
    this.repository = dataSource.getRepository(UsageBase);
    this.now = options.now ?? (() => new Date());
  }

  async count(accountId: string, usageBaseId: string): Promise<RunResult> {
    const base = await this.bases.get(accountId, usageBaseId);
    if (!this.accepting) throw unavailable('The service is shutting down');
    const run = this.countExclusive(base);
    this.running.add(run);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  }

  /** Stops new counts and waits for the running ones (graceful shutdown). */
  async drain(): Promise<void> {
    this.accepting = false;
    await Promise.allSettled([...this.running]);
  }

  private async countExclusive(base: UsageBase): Promise<RunResult> {
    const startedAt = this.now();
    if (!(await this.lock(base.id, startedAt))) throw conflict('A count of this base is already running');
    try {
      const tables = await this.upstream.getBaseSchema(base.baseId);
      const counts = await Promise.all(tables.map((table) => this.countTable(base.baseId, table)));
      const date = localDay(startedAt, base.timezone);
      const day = await this.snapshots.record(base.id, date, counts, this.now());
      return {
        status: 'success',
        tablesProcessed: day.totals.tableCount,
        totalRecords: day.totals.recordCount,
        totalAttachmentBytes: day.totals.storageBytes,
        totalFileCount: day.totals.fileCount,
        snapshotDate: day.date,
      };
    } finally {
      await this.unlock(base.id, startedAt);
    }
  }

  /** Takes the base's count lock with one conditional update, so two processes on one database cannot both win. */
  private async lock(usageBaseId: string, startedAt: Date): Promise<boolean> {
    const staleBefore = new Date(startedAt.getTime() - this.options.lockStaleMs).toISOString();
    const result = await this.repository
      .createQueryBuilder()
      .update()
      .set({ countStartedAt: startedAt })
      .where('id = :id AND (count_started_at IS NULL OR count_started_at < :staleBefore)', { id: usageBaseId, staleBefore })
      .execute();
    return result.affected === 1;
  }

  private async unlock(usageBaseId: string, startedAt: Date): Promise<void> {
    await this.repository
      .createQueryBuilder()
      .update()
      .set({ countStartedAt: null })
      .where('id = :id AND count_started_at = :startedAt', { id: usageBaseId, startedAt: startedAt.toISOString() })
      .execute();
  }

  private async countTable(baseId: string, table: UpstreamTable): Promise<TableCount> {
    const attachmentFieldIds = table.fields.filter((f) => f.type === 'multipleAttachments').map((f) => f.id);
    const fields = attachmentFieldIds.length > 0 ? attachmentFieldIds : [table.primaryFieldId];
    const count: TableCount = { tableId: table.id, tableName: table.name, recordCount: 0, storageBytes: 0, fileCount: 0 };
    const pages = this.upstream.listRecordPages(baseId, table.id, { fields, returnFieldsByFieldId: true, pageSize: 100 });
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
