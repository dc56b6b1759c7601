import { join } from 'node:path';
import { createLogger } from '../src/logger.js';
import { startServer, type RunningServer } from '../src/server.js';
import type { RunResult } from '../src/services/usage-count.service.js';
import type { BaseSummary, Sandbox } from '../src/sandbox/index.js';
import { runMultiTenantCountBench } from './count-multi-tenant.bench.js';
import { runReplicaCountBench } from './count-replicas.bench.js';
import { sendExpecting } from './support/http.js';
import { count, mib, seconds, verdict, type ReportTable } from './support/markdown.js';
import { sampleRssPeak } from './support/process-stats.js';
import { benchConfig } from './support/bench-config.js';
import { ATTACHMENTS_PER_RECORD, PAGE_SIZE, SANDBOX, WALL_TARGET_FACTOR } from './support/count-scenario.js';
import { progress } from './support/progress.js';
import { withTempDir } from './support/temp-dir.js';
import { tallyUpstreamCalls, type UpstreamCallCounts } from './support/upstream-tally.js';

const TABLES = 10;
const RECORDS_PER_TABLE = 10_000;

interface CountMeasurement {
  result: RunResult;
  summary: BaseSummary;
  wallMs: number;
  sandbox: { requests: number; rateLimited: number };
  client: { rateLimited: number; retries: number };
  calls: UpstreamCallCounts;
  rss: { before: number; peak: number };
}

/**
 * A usage count of a 100,000-record base through the real app over HTTP, against a rate-limited, slow sandbox; then
 * ten accounts of ten upstream users counting ten bases at once (count-multi-tenant.bench.ts).
 */
export async function runCountUsageBench(): Promise<ReportTable[]> {
  const single = await runSingleBaseCount();
  const tenants = await runMultiTenantCountBench();
  return [...single, ...tenants, ...(await runReplicaCountBench())];
}

async function runSingleBaseCount(): Promise<ReportTable[]> {
  return withTempDir('basewatch-bench-count-', async (dir) => {
    const config = benchConfig(join(dir, 'bench.sqlite'));
    const running = await startServer(config, createLogger(config.logLevel));
    try {
      return reportCount(await measureCount(running));
    } finally {
      await running.close();
    }
  });
}

interface PreparedCount {
  sandbox: Sandbox;
  upstreamBaseId: string;
  usageBaseId: string;
  apiKey: string;
}

/** The big base in the sandbox, an account, and the base tracked through the API. */
async function prepare(running: RunningServer): Promise<PreparedCount> {
  const sandbox = running.sandbox;
  if (!sandbox) throw new Error('The count benchmark needs the built-in sandbox upstream (AIRTABLE_TOKEN unset)');
  sandbox.faults.update(SANDBOX);
  const seeded = sandbox.store.seedLargeBase({
    name: 'Bench 100k',
    tables: TABLES,
    recordsPerTable: RECORDS_PER_TABLE,
    attachmentsPerRecord: ATTACHMENTS_PER_RECORD,
  });
  const { apiKey } = await running.services.accounts.create('bench');
  const { base } = await sendExpecting<{ base: { id: string } }>(201, `${running.url}/usage/bases`, {
    method: 'POST',
    apiKey,
    body: { baseId: seeded.id },
  });
  return { sandbox, upstreamBaseId: seeded.id, usageBaseId: base.id, apiKey };
}

async function measureCount(running: RunningServer): Promise<CountMeasurement> {
  const { sandbox, upstreamBaseId, usageBaseId, apiKey } = await prepare(running);
  const sandboxBefore = trafficOf(sandbox, upstreamBaseId);
  const clientBefore = { ...running.services.upstream.stats };
  const observer = observeCount(sandbox, upstreamBaseId);
  progress(`count: ${count(TABLES * RECORDS_PER_TABLE)} records, expect about 3.5 minutes`);
  const started = performance.now();
  let result: RunResult;
  try {
    result = await sendExpecting<RunResult>(200, `${running.url}/usage/bases/${usageBaseId}/run`, { method: 'POST', apiKey });
  } finally {
    observer.stop();
  }
  const wallMs = performance.now() - started;
  const { calls, rss } = observer.stop();
  const sandboxAfter = trafficOf(sandbox, upstreamBaseId);
  const clientAfter = running.services.upstream.stats;
  return {
    result,
    summary: sandbox.store.summarizeBase(upstreamBaseId),
    wallMs,
    sandbox: {
      requests: sandboxAfter.requests - sandboxBefore.requests,
      rateLimited: sandboxAfter.rateLimited - sandboxBefore.rateLimited,
    },
    client: {
      rateLimited: clientAfter.rateLimited - clientBefore.rateLimited,
      retries: clientAfter.retries - clientBefore.retries,
    },
    calls,
    rss,
  };
}

/** Tallies upstream calls, samples RSS and prints progress until stopped; stop() may be called again for the result. */
function observeCount(sandbox: Sandbox, baseId: string) {
  const tally = tallyUpstreamCalls(baseId);
  const before = process.memoryUsage.rss();
  const rss = sampleRssPeak(() => process.memoryUsage.rss());
  const started = performance.now();
  const ticker = setInterval(() => {
    const { requests, rateLimited } = trafficOf(sandbox, baseId);
    progress(`count: ${seconds(performance.now() - started)}, ${requests} requests to the base, ${rateLimited} refused`);
  }, 20_000);
  let stopped: { calls: UpstreamCallCounts; rss: { before: number; peak: number } } | undefined;
  return {
    stop() {
      clearInterval(ticker);
      stopped ??= { calls: tally.stop(), rss: { before, peak: rss.stop() } };
      return stopped;
    },
  };
}

const trafficOf = (sandbox: Sandbox, baseId: string) => ({
  requests: 0,
  rateLimited: 0,
  ...sandbox.stats.byBase.get(baseId),
});

function reportCount(m: CountMeasurement): ReportTable[] {
  const minimumList = m.summary.tables.reduce((sum, table) => sum + Math.ceil(table.records / PAGE_SIZE), 0);
  const floorMs = (minimumList / SANDBOX.rateLimitPerSecond) * 1000;
  const ratio = m.wallMs / floorMs;
  const within = ratio <= WALL_TARGET_FACTOR;
  const { sandbox, client, calls } = m;
  const title =
    `Usage count: ${count(m.summary.records)} records in ${m.summary.tables.length} tables, ` +
    `sandbox ${SANDBOX.rateLimitPerSecond} req/s per base, ${SANDBOX.latencyMs} ms latency`;
  const rows = [
    check(
      'requests the sandbox received for the base',
      sandbox.requests,
      `= ${count(minimumList + 1)} (list + 1 schema read)`,
      sandbox.requests === minimumList + 1,
    ),
    check(
      '… list-records requests',
      calls.listRecords,
      `= ${count(minimumList)} (Σ ceil(records / ${PAGE_SIZE}))`,
      calls.listRecords === minimumList,
    ),
    check('… schema reads', calls.schemaReads, '= 1', calls.schemaReads === 1),
    [
      'wall time of POST /usage/bases/{id}/run',
      seconds(m.wallMs),
      `≤ ${seconds(floorMs * WALL_TARGET_FACTOR)} (${WALL_TARGET_FACTOR} × floor)`,
      verdict(within),
    ],
    [`floor: list requests / ${SANDBOX.rateLimitPerSecond} per s`, seconds(floorMs), '—', '—'],
    ['wall / floor', ratio.toFixed(3), `≤ ${WALL_TARGET_FACTOR.toFixed(3)}`, verdict(within)],
    check('429s sent by the sandbox (stats.byBase)', sandbox.rateLimited, '0', sandbox.rateLimited === 0),
    check('429s seen by the client (upstream.stats)', client.rateLimited, '0', client.rateLimited === 0),
    ['client retries', count(client.retries), '—', '—'],
    ['peak RSS during the count', `${mib(m.rss.peak)} (before: ${mib(m.rss.before)})`, '—', '—'],
  ];
  const notes = [
    'List and schema requests are told apart at the client (fetch); the total is the sandbox’s own count. ' +
      'RSS is the whole bench process, which also holds the sandbox’s 100,000 records.',
  ];
  return [{ title, headers: ['metric', 'measured', 'target', 'result'], rows, notes }, correctness(m)];
}

const check = (metric: string, measured: number, target: string, ok: boolean) => [metric, count(measured), target, verdict(ok)];

function correctness({ result, summary }: CountMeasurement): ReportTable {
  const checks: [string, number, number][] = [
    ['tables', result.tablesProcessed, summary.tables.length],
    ['records', result.totalRecords, summary.records],
    ['files (attachments)', result.totalFileCount, summary.attachments],
    ['attachment bytes', result.totalAttachmentBytes, summary.attachmentBytes],
  ];
  return {
    title: 'Usage count: totals vs store.summarizeBase',
    headers: ['total', 'counted', 'expected', 'result'],
    rows: checks.map(([name, counted, expected]) => [name, count(counted), count(expected), verdict(counted === expected)]),
  };
}
