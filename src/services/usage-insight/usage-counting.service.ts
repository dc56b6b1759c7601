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
/** The upstream's clock (a change's time) against ours (a count's start). */
const CLOCK_MARGIN_MS = 5 * 60_000;
const DAYS_SHOWN = 30;

/** GET/PUT /usage/bases/{id}/counting. */
export interface UsageCounting {
  countOnlyWhenChanged: boolean;
  auditWatched: boolean;
  days: Array<{ date: string; apiCalls: number | null; carriedOver: boolean; fromMirror: boolean }>;
  savedCalls: number;
}

/** Ingests what the upstream holds for a watch now (ChangeIngestService), so the log is current. */
export interface LogReader {
  ingest(watchId: string): Promise<unknown>;
}

/** Whether the account's work can reach the upstream now (UpstreamAccess): a paused account's log misses changes. */
export interface Reachability {
  canReach(accountId: string): Promise<boolean>;
}

/**
 * What counting costs, and counting only when needed (issue 18 point 4). With `countOnlyWhenChanged`, a scheduled
 * count is carried over from the last full count when the audit log of the base shows nothing since: the base's log
 * must cover all changes (a monitoring config with scope `all`, working, unchanged since before that count) through an upstream
 * watch without a gap since then, read up to now just before deciding. A full count still runs every 7 days.
 * Every doubt (a paused account, a gap, changes already pruned, a Changes table inside the base itself) means a count.
 */
export class UsageCountingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly usageBases: UsageBaseService,
    private readonly snapshots: SnapshotService,
    private readonly log: LogReader,
    private readonly access: Reachability,
    /** AUDIT_RETENTION_DAYS: changes older than this may be pruned from the log. */
    private readonly retentionDays: number,
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
      where: { usageBaseId: base.id, carriedOver: false, fromMirror: false },
      order: { date: 'DESC' },
    });
    if (!last || last.date >= day || dayNumber(day) - dayNumber(last.date) >= FULL_COUNT_EVERY_DAYS) return false;
    const started = last.countStartedAt ?? new Date(last.countedAt.getTime() - COUNT_MARGIN_MS);
    const since = new Date(started.getTime() - CLOCK_MARGIN_MS);
    if (since.getTime() < now.getTime() - this.retentionDays * 86_400_000) return false;
    if (!(await this.access.canReach(base.accountId))) return false;
    const before = await this.completeLog(base, started, now);
    if (!before) return false;
    try {
      await this.log.ingest(before.watch.id);
    } catch {
      return false;
    }
    // Reading may have re-created the watch (a gap) or left a config out: the log must still be whole.
    const after = await this.completeLog(base, started, now);
    if (!after) return false;
    // From a little before the count started: the change's time is the upstream's clock.
    const changed = await this.dataSource
      .getRepository(ChangeEntry)
      .existsBy({ configId: In(after.configIds), occurredAt: MoreThanOrEqual(since) });
    if (changed) return false;
    // Written only if the day has no count yet: a count made meanwhile (POST …/run) stands.
    await this.snapshots.record(base.id, day, JSON.parse(last.tablesJson) as TableCount[], now, { apiCalls: 0, carriedOver: true });
    return true;
  }

  /**
   * The configs and the watch that log every change of the base since `since` (any time, without it); null when none
   * do. A Changes table inside the base itself is left out of its log while its rows count: such a base always counts.
   */
  private async completeLog(
    base: UsageBase,
    since?: Date,
    now = new Date(),
  ): Promise<{ configIds: string[]; watch: UpstreamWatch } | null> {
    const configs = (
      await this.dataSource.getRepository(MonitoringConfig).find({
        where: {
          accountId: base.accountId,
          baseId: base.baseId,
          scope: 'all',
          status: 'ok',
          ...(since ? { updatedAt: LessThanOrEqual(since) } : {}),
        },
      })
    ).filter((config) => config.monitoringBaseId !== base.baseId && (!since || !config.logGapAt || config.logGapAt < since));
    const watch = await this.dataSource.getRepository(UpstreamWatch).findOneBy({ baseId: base.baseId, status: 'active' });
    if (!configs.length || !watch) return null;
    if (since && ((watch.continuousSince ?? watch.createdAt) > since || (watch.expiresAt && watch.expiresAt <= now))) return null;
    return { configIds: configs.map((config) => config.id), watch };
  }

  private async of(base: UsageBase): Promise<UsageCounting> {
    // Enough older days to find the full count each shown carried-over day copied.
    const rows = await this.dataSource.getRepository(UsageSnapshot).find({
      select: { date: true, apiCalls: true, carriedOver: true, fromMirror: true },
      where: { usageBaseId: base.id },
      order: { date: 'DESC' },
      take: DAYS_SHOWN + FULL_COUNT_EVERY_DAYS,
    });
    let savedCalls = 0;
    rows.slice(0, DAYS_SHOWN).forEach((row, i) => {
      if (!row.carriedOver) return;
      savedCalls += rows.slice(i + 1).find((older) => !older.carriedOver && !older.fromMirror)?.apiCalls ?? 0;
    });
    return {
      countOnlyWhenChanged: base.countOnlyWhenChanged,
      auditWatched: (await this.completeLog(base)) !== null,
      days: rows
        .slice(0, DAYS_SHOWN)
        .map((row) => ({ date: row.date, apiCalls: row.apiCalls, carriedOver: row.carriedOver, fromMirror: row.fromMirror })),
      savedCalls,
    };
  }
}
