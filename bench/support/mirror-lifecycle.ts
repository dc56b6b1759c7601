import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageBase, UsageSnapshot, type TableCount } from '../../src/entities/index.js';
import { createLogger } from '../../src/logger.js';
import type { RestoreView } from '../../src/services/mirror/mirror-restore.service.js';
import type { RunResult } from '../../src/services/usage-count.service.js';
import { userFromEmail, type BaseSummary } from '../../src/sandbox/index.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { tallyBaseCalls, type BaseCalls } from './base-calls.js';
import { benchConfig } from './bench-config.js';
import { sendExpecting } from './http.js';
import { count, seconds } from './markdown.js';
import { makeDayOfChanges, type DayOfChanges } from './mirror-day.js';
import type { MirrorBenchSizes } from './mirror-sizes.js';
import { progress } from './progress.js';
import { withTempDir } from './temp-dir.js';

/** One measured step: its wall time, the upstream calls for the base, and the sandbox's 429s for it. */
export interface Step {
  ms: number;
  calls: BaseCalls;
  refused: number;
}

export interface Lifecycle {
  sizes: MirrorBenchSizes;
  before: BaseSummary;
  seed: Step & { outcome: string; records: number; baselineBytes: number; baselineVersions: number };
  day: { made: DayOfChanges; ingest: Step & { payloads: number; changes: number }; status: string };
  full: Step & { result: RunResult; tables: TableCount[]; statusAfter: string };
  mirrorCount: Step & { counted: boolean; apiCalls: number | null; fromMirror: boolean; tables: TableCount[] };
  truth: BaseSummary;
  restore: {
    deleted: number;
    ingest: Step;
    plan: Step;
    run: Step;
    view: RestoreView | null;
    tableRecords: { before: number; after: number };
    mirrorAfter: { records: number; upstream: number };
  };
}

const RATE_WINDOW_MS = 1_200;

/**
 * Parts 1, 2 and 5 of the mirror bench, through the real app against its sandbox at the real 5 requests/s per base:
 * the seed of a large base, a day of changes read through the watch, a full count and a count from the mirror, and
 * the restore of deleted records. Jobs do not run: each step is called as its job would call it, and timed.
 */
export async function runMirrorLifecycle(sizes: MirrorBenchSizes): Promise<Lifecycle> {
  return withTempDir('basewatch-bench-mirror-', async (dir) => {
    const config = benchConfig(join(dir, 'bench.sqlite'), { SCHEDULER_RUN_JOBS: 'false' });
    const running = await startServer(config, createLogger(config.logLevel));
    try {
      return await measure(running, sizes);
    } finally {
      await running.close();
    }
  });
}

async function measure(running: RunningServer, sizes: MirrorBenchSizes): Promise<Lifecycle> {
  const sandbox = running.sandbox;
  if (!sandbox) throw new Error('The mirror benchmark needs the built-in sandbox upstream (AIRTABLE_TOKEN unset)');
  const { services } = running;
  const { records, tables, fieldsPerTable, attachmentsPerRecord } = sizes.base;
  progress(
    `mirror: building a base of ${count(records)} records (${tables} tables, ${fieldsPerTable} fields, ${attachmentsPerRecord} files each)`,
  );
  const upstream = sandbox.store.seedLargeBase({
    name: 'Mirror bench',
    tables,
    recordsPerTable: Math.ceil(records / tables),
    attachmentsPerRecord,
    fieldsPerTable,
  });
  const baseId = upstream.id;
  sandbox.faults.update({ rateLimitPerSecond: 5, latencyMs: sizes.latencyMs });
  const before = sandbox.store.summarizeBase(baseId);
  const { apiKey } = await services.accounts.create('bench');
  const logBase = sandbox.store.addBase({ name: 'Mirror bench log', tables: [] });
  const { config } = await sendExpecting<{ config: { id: string } }>(201, `${running.url}/monitoring-config`, {
    method: 'POST',
    apiKey,
    body: { baseId, monitoringBaseId: logBase.id, scope: 'records_only' },
  });
  const refusedSoFar = () => sandbox.stats.byBase.get(baseId)?.rateLimited ?? 0;
  const step = async <T>(name: string, work: () => Promise<T>): Promise<Step & { value: T }> => {
    await sleep(RATE_WINDOW_MS);
    const refused = refusedSoFar();
    const tally = tallyBaseCalls(baseId);
    const started = performance.now();
    const ticker = setInterval(() => progress(`mirror: ${name}, ${seconds(performance.now() - started)}`), 20_000);
    try {
      const value = await work();
      return { value, ms: performance.now() - started, calls: tally.stop(), refused: refusedSoFar() - refused };
    } finally {
      clearInterval(ticker);
      tally.stop();
    }
  };

  const minimum = before.tables.reduce((sum, table) => sum + Math.ceil(table.records / 100), 0);
  progress(`mirror: seeding the mirror (${count(minimum)} list requests at 5/s: about ${seconds((minimum / 5) * 1000)})`);
  const seeded = await step('seed', () => services.mirrorSeeds.seed(baseId));
  const versionStats = await baselineVersionBytes(running);

  progress(`mirror: a day of ${count(sizes.dayChanges)} changes upstream, then read through the watch`);
  const made = makeDayOfChanges(sandbox, baseId, sizes.dayChanges);
  const watch = await services.watches.find({ baseId });
  if (!watch) throw new Error('The monitoring config made no upstream watch');
  const ingest = async () => services.changeIngest.ingest(watch.id);
  const dayIngest = await step('ingestion of the day', ingest);
  const dayStatus = (await services.mirrors.find(baseId))?.status ?? 'none';

  progress(`mirror: a full count of the base (${count(minimum)} list requests at 5/s)`);
  const { base: usage } = await sendExpecting<{ base: { id: string } }>(201, `${running.url}/usage/bases`, {
    method: 'POST',
    apiKey,
    body: { baseId },
  });
  const full = await step('full count', () =>
    sendExpecting<RunResult>(200, `${running.url}/usage/bases/${usage.id}/run`, { method: 'POST', apiKey }),
  );
  const statusAfterFull = (await services.mirrors.find(baseId))?.status ?? 'none';
  const snapshotOf = (date: string) => services.dataSource.manager.findOneBy(UsageSnapshot, { usageBaseId: usage.id, date });
  const fullTables = JSON.parse((await snapshotOf(full.value.snapshotDate))!.tablesJson) as TableCount[];

  progress('mirror: the next day counted from the mirror');
  const nextDay = new Date(Date.parse(`${full.value.snapshotDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const usageBase = (await services.dataSource.manager.findOneBy(UsageBase, { id: usage.id }))!;
  const fromMirror = await step('count from the mirror', () => services.mirrorCounts.countFromMirror(usageBase, nextDay, new Date()));
  const day = await snapshotOf(nextDay);
  const truth = sandbox.store.summarizeBase(baseId);

  const restore = await measureRestore(running, sizes, { baseId, configId: config.id, apiKey, step, ingest });
  return {
    sizes,
    before,
    seed: { ...seeded, outcome: seeded.value, records: before.records, ...versionStats },
    day: { made, ingest: { ...dayIngest, payloads: dayIngest.value.payloads, changes: dayIngest.value.changes }, status: dayStatus },
    full: { ...full, result: full.value, tables: fullTables, statusAfter: statusAfterFull },
    mirrorCount: {
      ...fromMirror,
      counted: fromMirror.value,
      apiCalls: day?.apiCalls ?? null,
      fromMirror: day?.fromMirror ?? false,
      tables: day ? (JSON.parse(day.tablesJson) as TableCount[]) : [],
    },
    truth,
    restore,
  };
}

interface RestoreContext {
  baseId: string;
  configId: string;
  apiKey: string;
  step: <T>(name: string, work: () => Promise<T>) => Promise<Step & { value: T }>;
  ingest: () => Promise<unknown>;
}

/** Deletes records of the first table (10 a write, as a person would in the grid), then restores them all. */
async function measureRestore(running: RunningServer, sizes: MirrorBenchSizes, context: RestoreContext): Promise<Lifecycle['restore']> {
  const { baseId, configId, apiKey, step, ingest } = context;
  const sandbox = running.sandbox!;
  const table = sandbox.store.requireBase(baseId).tables[0];
  const recordIds = [...table.records.keys()].slice(0, sizes.restoreRecords);
  const tableBefore = table.records.size;
  progress(`mirror: deleting ${count(recordIds.length)} records of ${table.name}, then restoring them`);
  const actor = { source: 'client' as const, user: userFromEmail('careless@example.com', 'Careless') };
  for (let i = 0; i < recordIds.length; i += 10) sandbox.store.deleteRecords(baseId, table.id, recordIds.slice(i, i + 10), actor);
  const deletions = await step('ingestion of the deletions', ingest);
  const plan = await step('restore: POST …/restores', () =>
    sendExpecting<{ restore: RestoreView }>(202, `${running.url}/monitoring-config/${configId}/restores`, {
      method: 'POST',
      apiKey,
      body: { tableId: table.id, recordIds },
    }),
  );
  // The job's run, as the mirror.restore job calls it, straight after the request (no pause for the rate window).
  const started = performance.now();
  const tally = tallyBaseCalls(baseId);
  const refused = sandbox.stats.byBase.get(baseId)?.rateLimited ?? 0;
  const view = await running.services.mirrorRestores.run(plan.value.restore.id);
  const run: Step = {
    ms: performance.now() - started,
    calls: tally.stop(),
    refused: (sandbox.stats.byBase.get(baseId)?.rateLimited ?? 0) - refused,
  };
  await sleep(RATE_WINDOW_MS);
  await ingest();
  const mirror = await running.services.mirrors.find(baseId);
  const state = mirror ? await running.services.mirrorReads.stateOf(mirror) : null;
  const upstreamNow = sandbox.store.summarizeBase(baseId);
  return {
    deleted: recordIds.length,
    ingest: deletions,
    plan,
    run,
    view,
    tableRecords: { before: tableBefore, after: table.records.size },
    mirrorAfter: {
      records: state?.tables.reduce((sum, t) => sum + t.recordCount, 0) ?? 0,
      upstream: upstreamNow.records,
    },
  };
}

/** mirror_version's pages (dbstat) over its rows, right after the seed wrote a baseline version of every record. */
async function baselineVersionBytes(running: RunningServer): Promise<{ baselineBytes: number; baselineVersions: number }> {
  const query = (sql: string) => running.services.dataSource.query(sql) as Promise<Array<Record<string, number>>>;
  const [{ bytes }] = await query(
    `SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN ('mirror_version', 'ix_mirror_version_record', 'ix_mirror_version_at')`,
  );
  const [{ n }] = await query('SELECT COUNT(*) AS n FROM mirror_version');
  return { baselineBytes: Number(bytes) / Number(n), baselineVersions: Number(n) };
}
