import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { UsageBase } from '../src/entities/index.js';
import { SqliteJobRepository } from '../src/jobs/backends/sqlite/index.js';
import { COUNT_USAGE_JOB } from '../src/jobs/usage-job-store.js';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/server.js';
import { count, mib, ms, seconds, verdict, type ReportTable } from './support/markdown.js';
import { benchConfig } from './support/bench-config.js';
import { progress } from './support/progress.js';
import { withTempDir } from './support/temp-dir.js';

const BASES = 10_000;
const RECONCILE_TARGET_MS = 5_000;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Australia/Lord_Howe'];

/** 10,000 tracked bases on the embedded SQLite job store: reconcile at start-up, and how fast due jobs are locked. */
export async function runSchedulerBench(): Promise<ReportTable[]> {
  return withTempDir('basewatch-bench-scheduler-', async (dir) => {
    const config = benchConfig(join(dir, 'bench.sqlite'), { SCHEDULER_RUN_JOBS: 'false' });
    const running = await startServer(config, createLogger(config.logLevel));
    try {
      const { dataSource, services } = running;
      progress(`scheduler: inserting ${count(BASES)} tracked bases`);
      const { account } = await services.accounts.create('bench');
      const now = new Date(Date.now() - 86_400_000);
      const rows = Array.from({ length: BASES }, (_, i) =>
        Object.assign(new UsageBase(), {
          id: randomUUID(),
          accountId: account.id,
          baseId: `app${String(i).padStart(14, '0')}`,
          baseName: `Base ${i}`,
          scheduledHour: i % 24,
          timezone: ZONES[i % ZONES.length],
          createdAt: now,
          updatedAt: now,
          countLockToken: null,
          countLockUntil: null,
        }),
      );
      await dataSource.transaction(async (manager) => {
        for (let i = 0; i < rows.length; i += 500) await manager.insert(UsageBase, rows.slice(i, i + 500));
      });

      const measure = async () => {
        global.gc?.();
        const rssBefore = process.memoryUsage().rss;
        const heapBefore = process.memoryUsage().heapUsed;
        const started = performance.now();
        const result = await services.usageSchedule.reconcile();
        const wall = performance.now() - started;
        return { result, wall, rss: process.memoryUsage().rss - rssBefore, heap: process.memoryUsage().heapUsed - heapBefore };
      };
      progress('scheduler: reconcile with no jobs (cold start)');
      const cold = await measure();
      progress('scheduler: reconcile with every job in place');
      const warm = await measure();
      await dataSource.query('UPDATE usage_base SET scheduled_hour = (scheduled_hour + 1) % 24 WHERE rowid % 10 = 0');
      progress('scheduler: reconcile after 1,000 hours changed');
      const moved = await measure();

      progress('scheduler: locking every job as due');
      await dataSource.query('UPDATE agenda_job SET next_run_at = ?', [new Date(Date.now() - 1_000).toISOString()]);
      const repository = new SqliteJobRepository({ dataSource });
      const lockDeadline = () => new Date(Date.now() - 600_000);
      // As a worker does: lock the next due job, then finish it (unlocked, next run tomorrow).
      const lockStarted = performance.now();
      let locked = 0;
      for (;;) {
        const job = await repository.getNextJobToRun(COUNT_USAGE_JOB, new Date(), lockDeadline(), new Date(), undefined);
        if (!job) break;
        locked += 1;
        await repository.saveJobState({ ...job, lockedAt: undefined, nextRunAt: new Date(Date.now() + 86_400_000) }, undefined);
      }
      const lockWall = performance.now() - lockStarted;

      const row = (name: string, m: typeof cold, target: boolean) => [
        name,
        `+${m.result.added} / moved ${m.result.moved} / −${m.result.removed} / caught up ${m.result.caughtUp}`,
        seconds(m.wall),
        ms(m.wall),
        mib(m.heap),
        mib(m.rss),
        target ? `< ${seconds(RECONCILE_TARGET_MS)}` : '—',
        target ? verdict(m.wall < RECONCILE_TARGET_MS) : '—',
      ];
      return [
        {
          title: `Start-up reconcile of ${count(BASES)} tracked bases (SQLite job store)`,
          headers: ['case', 'jobs changed', 'wall', 'wall (ms)', 'heap Δ', 'RSS Δ', 'target', 'result'],
          rows: [row('no jobs yet', cold, true), row('all in place', warm, true), row('1,000 hours changed', moved, true)],
          notes: [`Process RSS after the runs: ${mib(process.memoryUsage().rss)}.`],
        },
        {
          title: 'Due jobs locked and finished on SQLite (one worker: atomic UPDATE … RETURNING, then the state save)',
          headers: ['jobs locked', 'wall', 'jobs locked / s'],
          rows: [[count(locked), seconds(lockWall), count(Math.round(locked / (lockWall / 1000)))]],
        },
      ];
    } finally {
      await running.close();
    }
  });
}
