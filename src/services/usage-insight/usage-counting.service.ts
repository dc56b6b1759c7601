import { In, LessThanOrEqual, MoreThanOrEqual, type DataSource } from 'typeorm';
import { ChangeEntry, MonitoringConfig, UpstreamWatch, UsageBase, UsageSnapshot, type TableCount } from '../../entities/index.js';
import type { UsageBaseService } from '../usage-base.service.js';
import type { SnapshotService } from '../snapshot.service.js';
import type { CountingUpdate } from './counting.input.js';
import { dayNumber } from './day-arithmetic.js';

/** A full count runs at least this often, whatever the log says: a safety net under the audit watch. */
export const FULL_COUNT_EVERY_DAYS = 7;
/** For counts from before their start was kept: changes this long before one finished may not be in it. */
const COUNT_MARGIN_MS = 3_600_000;
const DAYS_SHOWN = 30;

/** GET/PUT /usage/bases/{id}/counting. */
export interface UsageCounting {
  countOnlyWhenChanged: boolean;
  auditWatched: boolean;
  days: Array<{ date: string; apiCalls: number | null; carriedOver: boolean }>;
  savedCalls: number;
}

/** Ingests what the upstream holds for a watch now (ChangeIngestService), so the log is current. */
export interface LogReader {
  ingest(watchId: string): Promise<unknown>;
}

/**
 * What counting costs, and counting only when needed (issue 18 point 4). With `countOnlyWhenChanged`, a scheduled
 * count is carried over from the last full count when the audit log of the base shows nothing since: the base's log
 * must cover all changes (a monitoring config with scope `all`, working, unchanged since before that count) through an upstream
 * watch without a gap since then, read up to now just before deciding. A full count still runs every 7 days.
 */
export class UsageCountingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly usageBases: UsageBaseService,
    private readonly snapshots: SnapshotService,
    private readonly log: LogReader,
  ) {}

  async get(accountId: string, usageBaseId: string): Promise<UsageCounting> {
    return this.of(await this.usageBases.get(accountId, usageBaseId));
  }

  async update(accountId: string, usageBaseId: string, input: CountingUpdate): Promise<UsageCounting> {
    const base = await this.usageBases.get(accountId, usageBaseId);
    await this.dataSource.getRepository(UsageBase).update({ id: base.id }, { countOnlyWhenChanged: input.countOnlyWhenChanged });
    return this.of({ ...base, countOnlyWhenChanged: input.countOnlyWhenChanged });
  }

  /**
   * The scheduled count's shortcut: records `day` as a copy of the last full count when nothing changed since;
   * false when a count is needed (the setting off, no complete log, a change logged, the last full count a week old).
   */
  async carryOver(base: UsageBase, day: string, now: Date): Promise<boolean> {
    if (!base.countOnlyWhenChanged) return false;
    const last = await this.dataSource.getRepository(UsageSnapshot).findOne({
      where: { usageBaseId: base.id, carriedOver: false },
      order: { date: 'DESC' },
    });
    if (!last || last.date >= day || dayNumber(day) - dayNumber(last.date) >= FULL_COUNT_EVERY_DAYS) return false;
    const since = last.countStartedAt ?? new Date(last.countedAt.getTime() - COUNT_MARGIN_MS);
    const log = await this.completeLog(base, since);
    if (!log) return false;
    try {
      await this.log.ingest(log.watch.id);
    } catch {
      return false;
    }
    const changed = await this.dataSource.getRepository(ChangeEntry).existsBy({ configId: In(log.configIds), occurredAt: MoreThanOrEqual(since) });
    if (changed) return false;
    await this.snapshots.record(base.id, day, JSON.parse(last.tablesJson) as TableCount[], now, { apiCalls: 0, carriedOver: true });
    return true;
  }

  /** The configs and the watch that log every change of the base since `since` (any time, without it); null when none do. */
  private async completeLog(base: UsageBase, since?: Date): Promise<{ configIds: string[]; watch: UpstreamWatch } | null> {
    const configs = await this.dataSource.getRepository(MonitoringConfig).find({
      select: { id: true },
      where: { accountId: base.accountId, baseId: base.baseId, scope: 'all', status: 'ok', ...(since ? { updatedAt: LessThanOrEqual(since) } : {}) },
    });
    const watch = await this.dataSource.getRepository(UpstreamWatch).findOneBy({ baseId: base.baseId, status: 'active' });
    if (!configs.length || !watch) return null;
    if (since && (watch.continuousSince ?? watch.createdAt) > since) return null;
    return { configIds: configs.map((config) => config.id), watch };
  }

  private async of(base: UsageBase): Promise<UsageCounting> {
    // Enough older days to find the full count each shown carried-over day copied.
    const rows = await this.dataSource.getRepository(UsageSnapshot).find({
      select: { date: true, apiCalls: true, carriedOver: true },
      where: { usageBaseId: base.id },
      order: { date: 'DESC' },
      take: DAYS_SHOWN + FULL_COUNT_EVERY_DAYS,
    });
    let savedCalls = 0;
    rows.slice(0, DAYS_SHOWN).forEach((row, i) => {
      if (!row.carriedOver) return;
      savedCalls += rows.slice(i + 1).find((older) => !older.carriedOver)?.apiCalls ?? 0;
    });
    return {
      countOnlyWhenChanged: base.countOnlyWhenChanged,
      auditWatched: (await this.completeLog(base)) !== null,
      days: rows.slice(0, DAYS_SHOWN).map((row) => ({ date: row.date, apiCalls: row.apiCalls, carriedOver: row.carriedOver })),
      savedCalls,
    };
  }
}
