import 'reflect-metadata';
import { availableParallelism, loadavg } from 'node:os';
import { runAuditIngestBench } from './audit-ingest.bench.js';
import { runChangeLogBench } from './change-log.bench.js';
import { runReplicaCountBench } from './count-replicas.bench.js';
import { runCountUsageBench } from './count-usage.bench.js';
import { runForecastAccuracyBench } from './forecast-accuracy.bench.js';
import { runGraphqlVsRestBench } from './graphql-vs-rest.bench.js';
import { runMirrorBench } from './mirror.bench.js';
import { renderTable, type ReportTable } from './support/markdown.js';
import { progress } from './support/progress.js';
import { runSchedulerBench } from './scheduler.bench.js';
import { runSnapshotHistoryBench } from './snapshot-history.bench.js';
import { runWebBench } from './web.bench.js';
import { runWebhookDeliveryBench } from './webhook-delivery.bench.js';

const BENCHMARKS: Record<string, () => Promise<ReportTable[]>> = {
  snapshots: runSnapshotHistoryBench,
  count: runCountUsageBench,
  // The last part of `count` alone: three replicas on PostgreSQL + Redis.
  'count-replicas': runReplicaCountBench,
  scheduler: runSchedulerBench,
  ingest: runAuditIngestBench,
  changes: runChangeLogBench,
  webhooks: runWebhookDeliveryBench,
  graphql: runGraphqlVsRestBench,
  web: runWebBench,
  forecast: runForecastAccuracyBench,
  mirror: runMirrorBench,
};

/** `npm run bench` runs every benchmark; `npm run bench -- count`, `-- snapshots` or `-- scheduler` runs one. Missed targets are reported, not failed. */
async function main(): Promise<void> {
  const selected = process.argv.slice(2);
  const unknown = selected.filter((name) => !(name in BENCHMARKS));
  if (unknown.length > 0) throw new Error(`Unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`);
  const names = selected.length > 0 ? selected : Object.keys(BENCHMARKS);
  for (const name of names) {
    progress(`${name}: starting`);
    const before = loadAverage();
    const tables = await BENCHMARKS[name]();
    const machine = `Node ${process.version}, ${availableParallelism()} cores; 1-minute load average ${before} before, ${loadAverage()} after.`;
    process.stdout.write(`## ${name}\n\n${machine}\n\n${tables.map(renderTable).join('\n\n')}\n\n`);
  }
}

// Other work on the machine skews timings; the load average says how busy it was.
const loadAverage = () => loadavg()[0].toFixed(2);

// Exit once the report is out, as src/main.ts does after shutdown: agenda leaves a timer of half a job's lock lifetime
// (5 minutes) behind every job it ran, which would hold the process that long after the servers closed.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
