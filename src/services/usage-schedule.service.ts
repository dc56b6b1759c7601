import { createHash, randomUUID } from 'node:crypto';
import type { DataSource, Repository } from 'typeorm';
import { UsageRun, type UsageBase } from '../entities/index.js';
import { isAppError, notFound } from '../errors.js';
import { localDayOf, nextDailyRun, todaysRun } from './daily-schedule.js';
import { isUniqueViolation } from '../repositories/db-errors.js';
import { successfulRunsOn, takeOverRun } from '../repositories/usage-run.repository.js';
import type { UsageBaseService } from './usage-base.service.js';
import type { UsageCountService } from './usage-count.service.js';

/** Where the daily jobs live (Agenda, in src/jobs): one job per tracked base, at the instant given. */
export interface UsageJobStore {
  set(usageBaseId: string, runAt: Date): Promise<void>;
  remove(usageBaseIds: string[]): Promise<void>;
  nextRunAt(usageBaseId: string): Promise<Date | null>;
  /** Every job: usage base id → next run (null when none is planned). */
  all(): Promise<Map<string, Date | null>>;
}

export interface UsageScheduleOptions {
  /** Bases sharing an hour start spread over this many ms after it, each at a fixed offset of its own. */
  spreadMs: number;
  /** A run still marked running after this long belongs to a process that died; its day may be taken over. */
  staleRunMs: number;
  now?: () => Date;
}

export interface LastRun {
  startedAt: Date;
  finishedAt: Date | null;
  status: 'ok' | 'failed' | 'running';
  error?: string;
}

export type ScheduledOutcome = 'counted' | 'from-mirror' | 'carried-over' | 'already-counted' | 'base-gone' | 'paused' | 'base-not-visible';

/** Whether a day's count can be skipped (UsageCountingService); records the carried-over day when it can. */
export interface CountShortcut {
  carryOver(base: UsageBase, day: string, now: Date): Promise<boolean>;
}

/** Counts a day from the base's mirror when it is live (MirrorCountService); false when a full count is needed. */
export interface MirrorCounter {
  countFromMirror(base: UsageBase, day: string, now: Date): Promise<boolean>;
}

/**
 * The daily count of every tracked base (ARCHITECTURE flow 3). The `usage_base` rows are the truth: jobs are made to
 * match them at start-up (`reconcile`) and on every change. A scheduled count is keyed on (base, local day).
 */
export class UsageScheduleService {
  private readonly runs: Repository<UsageRun>;
  private jobs?: UsageJobStore;
  private mirror?: MirrorCounter;
  private readonly now: () => Date;

  constructor(
    dataSource: DataSource,
    private readonly bases: UsageBaseService,
    private readonly counts: UsageCountService,
    private readonly shortcut: CountShortcut,
    private readonly options: UsageScheduleOptions,
  ) {
    this.runs = dataSource.getRepository(UsageRun);
    this.now = options.now ?? (() => new Date());
    bases.onChange({
      saved: (base) => this.jobStore().set(base.id, this.nextRunAt(base, this.now())),
      removed: (base) => this.jobStore().remove([base.id]),
    });
  }

  /** Connects the job store (created after the services, since its jobs call back into them). */
  attach(jobs: UsageJobStore): void {
    this.jobs = jobs;
  }

  /** The next daily run of a base after `now`: its local hour (DST-correct) plus the base's fixed spread. */
  nextRunAt(base: UsageBase, now: Date): Date {
    const offset = spreadOffset(base.id, this.options.spreadMs);
    // Looking from `now - offset` keeps a run whose hour has passed but whose spread slot has not.
    const { runAt } = nextDailyRun(base.scheduledHour, base.timezone, new Date(now.getTime() - offset));
    return new Date(runAt.getTime() + offset);
  }

  /** The next daily run of a base by id; null when the base is gone. */
  async nextRunAtOf(usageBaseId: string): Promise<Date | null> {
    const base = await this.bases.findById(usageBaseId);
    return base ? this.nextRunAt(base, this.now()) : null;
  }

  /**
   * Makes the jobs match the rows: adds missing jobs, removes orphans, moves jobs whose hour or zone changed. A base
   * whose run for today was missed while the service was down runs now, once; older days are not invented.
   */
  async reconcile(): Promise<{ added: number; moved: number; removed: number; caughtUp: number }> {
    const now = this.now();
    const jobs = await this.jobStore().all();
    const bases = await this.bases.listAll();
    const countedToday = await this.daysCounted(bases, now);
    const result = { added: 0, moved: 0, removed: 0, caughtUp: 0 };
    for (const base of bases) {
      const planned = jobs.get(base.id);
      jobs.delete(base.id);
      // A job already due runs as soon as the scheduler starts: that is the catch-up, for today's date.
      if (planned && planned.getTime() <= now.getTime()) continue;
      const missed = this.missedToday(base, now, countedToday);
      const next = missed ? now : this.nextRunAt(base, now);
      if (planned?.getTime() === next.getTime()) continue;
      await this.jobStore().set(base.id, next);
      if (missed) result.caughtUp += 1;
      else if (planned) result.moved += 1;
      else result.added += 1;
    }
    if (jobs.size > 0) await this.jobStore().remove([...jobs.keys()]);
    result.removed = jobs.size;
    return result;
  }

  /**
   * The daily job's body: counts the base for the local day it is in, unless that day was counted already.
   * Returns when the job should run next (null when the base is gone). Failures are rethrown for the job's retries.
   */
  async runScheduled(usageBaseId: string): Promise<{ outcome: ScheduledOutcome; nextRunAt: Date | null }> {
    const base = await this.bases.findById(usageBaseId);
    if (!base) return { outcome: 'base-gone', nextRunAt: null };
    const startedAt = this.now();
    const localDay = localDayOf(startedAt, base.timezone);
    const run = await this.claim(base.id, localDay, startedAt);
    if (!run) return { outcome: 'already-counted', nextRunAt: this.nextRunAt(base, this.now()) };
    try {
      // A base the account's connection no longer sees is not counted (nor its count retried): the next day asks again.
      if (await this.bases.isLost(base)) throw notVisible();
      const outcome = await this.countDay(base, localDay, startedAt);
      await this.runs.update({ id: run.id }, { status: 'ok', finishedAt: this.now(), error: null });
      return { outcome, nextRunAt: this.nextRunAt(base, this.now()) };
    } catch (error) {
      const message = isAppError(error) ? error.message : 'Internal error';
      // The account's connection needs its holder, or no longer sees the base: retrying cannot help, so the day
      // waits (and the next day's run counts once the account has reconnected). The schedule's lastRun shows why.
      const paused = isAppError(error) && error.code === 'upstream_not_connected';
      const lost = isAppError(error) && error.code === 'not_found';
      const recorded = paused ? `Paused: ${message}` : lost ? NOT_VISIBLE_MESSAGE : message;
      await this.runs.update({ id: run.id }, { status: 'failed', finishedAt: this.now(), error: recorded.slice(0, 500) });
      if (paused || lost) return { outcome: paused ? 'paused' : 'base-not-visible', nextRunAt: this.nextRunAt(base, this.now()) };
      throw error;
    }
  }

  /** The cheapest count that can be trusted: from the mirror, carried over, or a full count. */
  private async countDay(base: UsageBase, day: string, startedAt: Date): Promise<ScheduledOutcome> {
    if (await this.mirror?.countFromMirror(base, day, startedAt)) return 'from-mirror';
    if (await this.shortcut.carryOver(base, day, startedAt)) return 'carried-over';
    await this.counts.countTracked(base, 'job');
    return 'counted';
  }

  useMirrorCounts(mirror: MirrorCounter): void {
    this.mirror = mirror;
  }

  /** What GET /usage/bases/{id}/schedule shows. */
  async schedule(accountId: string, usageBaseId: string): Promise<{ nextRunAt: Date | null; lastRun: LastRun | null }> {
    const base = await this.bases.get(accountId, usageBaseId);
    const [nextRunAt, last] = await Promise.all([
      this.jobStore().nextRunAt(base.id),
      this.runs.findOne({ where: { usageBaseId: base.id }, order: { startedAt: 'DESC' } }),
    ]);
    const lastRun: LastRun | null = last
      ? { startedAt: last.startedAt, finishedAt: last.finishedAt, status: last.status, ...(last.error ? { error: last.error } : {}) }
      : null;
    return { nextRunAt, lastRun };
  }

  /** Claims (base, day) for this run; undefined when it was counted already or another process is counting it. */
  private async claim(usageBaseId: string, localDay: string, startedAt: Date): Promise<UsageRun | undefined> {
    const run = Object.assign(new UsageRun(), {
      id: randomUUID(),
      usageBaseId,
      localDay,
      status: 'running' as const,
      startedAt,
      finishedAt: null,
      error: null,
    });
    try {
      await this.runs.insert(run);
      return run;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    // The day has a run already: a failed one is retried, and a running one whose process died is taken over.
    const staleBefore = new Date(startedAt.getTime() - this.options.staleRunMs).toISOString();
    return (await takeOverRun(this.runs, run, usageBaseId, localDay, staleBefore)) ? run : undefined;
  }

  private async daysCounted(bases: UsageBase[], now: Date): Promise<Set<string>> {
    const days = new Set(bases.map((base) => localDayOf(now, base.timezone)));
    const rows = await successfulRunsOn(this.runs, [...days]);
    return new Set(rows.map((row) => `${row.usageBaseId}|${row.localDay}`));
  }

  /** Today's slot (hour plus spread) has passed, the base existed then, and no count of today succeeded. */
  private missedToday(base: UsageBase, now: Date, countedToday: Set<string>): boolean {
    const offset = spreadOffset(base.id, this.options.spreadMs);
    const today = todaysRun(base.scheduledHour, base.timezone, new Date(now.getTime() - offset));
    if (!today || today.runAt.getTime() + offset < base.createdAt.getTime()) return false;
    return !countedToday.has(`${base.id}|${today.localDay}`);
  }

  private jobStore(): UsageJobStore {
    if (!this.jobs) throw new Error('The usage job store is not attached');
    return this.jobs;
  }
}

const NOT_VISIBLE_MESSAGE = 'Paused: the account’s upstream connection no longer sees this base';
const notVisible = () => notFound('Usage base');

/** A base's fixed place within the spread: the same every day, different between bases. */
function spreadOffset(usageBaseId: string, spreadMs: number): number {
  if (spreadMs <= 0) return 0;
  return createHash('sha256').update(usageBaseId).digest().readUInt32BE(0) % spreadMs;
}
