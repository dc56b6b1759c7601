import { generateApiKey } from '../src/services/credentials/api-key.js';
import type { BaseSummary } from '../src/sandbox/index.js';
import { buildService, startBuiltService, stopService, type BuiltService } from './support/built-service.js';
import { ATTACHMENTS_PER_RECORD, PAGE_SIZE, SANDBOX, WALL_TARGET_FACTOR } from './support/count-scenario.js';
import { sendExpecting } from './support/http.js';
import { count, seconds, verdict, type ReportTable } from './support/markdown.js';
import { progress } from './support/progress.js';
import { startStandaloneSandbox } from './support/standalone-sandbox.js';
import { REDIS_URL, sharedServices } from './support/shared-services.js';

const REPLICAS = 3;
const TABLES = 10;
const RECORDS_PER_TABLE = 1_000;
const SANDBOX_TOKEN = 'bench-replicas-sandbox-token';

interface Counted {
  replica: number;
  base: { id: string; name: string; summary: BaseSummary };
  wallMs: number;
  requests: number;
  rateLimited: number;
  status: number;
}

/**
 * Three replicas (the built service, each its own process) on one PostgreSQL database and one Redis prefix, against a
 * standalone sandbox: three bases of one upstream user, each counted by another replica, all at once. Each base's
 * 5 requests a second and the user's 50 are shared through Redis.
 */
export async function runReplicaCountBench(): Promise<ReportTable[]> {
  const shared = await sharedServices('count');
  if (!shared) {
    return [
      { title: 'Count by three replicas', headers: ['skipped'], rows: [['PostgreSQL or Redis did not answer on their usual ports']] },
    ];
  }
  const sandbox = await startStandaloneSandbox(SANDBOX_TOKEN);
  const replicas: BuiltService[] = [];
  try {
    await sandbox.control('PUT', 'faults', SANDBOX);
    const bases = [];
    for (let i = 0; i < REPLICAS; i++) {
      bases.push(
        await sandbox.control<{ id: string; name: string; summary: BaseSummary }>('POST', 'bases/large', {
          name: `Replica bench ${i + 1}`,
          tables: TABLES,
          recordsPerTable: RECORDS_PER_TABLE,
          attachmentsPerRecord: ATTACHMENTS_PER_RECORD,
        }),
      );
    }
    progress('count: building the service for three replicas (tsc -p tsconfig.build.json)');
    buildService();
    const apiKey = generateApiKey();
    const env = {
      DATABASE_URL: shared.databaseUrl,
      REDIS_URL,
      REDIS_KEY_PREFIX: shared.redisPrefix,
      AIRTABLE_API_URL: sandbox.url,
      AIRTABLE_TOKEN: SANDBOX_TOKEN,
      BOOTSTRAP_API_KEY: apiKey,
      SCHEDULER_RUN_JOBS: 'false',
      UPSTREAM_LOCKOUT_MS: String(SANDBOX.lockoutMs),
    };
    // One after the other: the first migrates the database.
    for (let i = 0; i < REPLICAS; i++) replicas.push(await startBuiltService(env));
    const tracked: string[] = [];
    for (const base of bases) {
      const created = await sendExpecting<{ base: { id: string } }>(201, `${replicas[0]!.url}/usage/bases`, {
        apiKey,
        method: 'POST',
        body: { baseId: base.id },
      });
      tracked.push(created.base.id);
    }
    progress(
      `count: ${REPLICAS} replicas each counting one of ${REPLICAS} bases of one user (${count(TABLES * RECORDS_PER_TABLE)} records each), at once`,
    );
    const before = await sandbox.control<Stats>('GET', 'stats');
    const started = performance.now();
    const counted = await Promise.all(
      bases.map(async (base, i): Promise<Counted> => {
        const res = await fetch(`${replicas[i]!.url}/usage/bases/${tracked[i]}/run`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}` },
        });
        await res.text();
        return { replica: i + 1, base, wallMs: performance.now() - started, requests: 0, rateLimited: 0, status: res.status };
      }),
    );
    const wallMs = performance.now() - started;
    const after = await sandbox.control<Stats>('GET', 'stats');
    for (const c of counted) {
      c.requests = (after.byBase[c.base.id]?.requests ?? 0) - (before.byBase[c.base.id]?.requests ?? 0);
      c.rateLimited = (after.byBase[c.base.id]?.rateLimited ?? 0) - (before.byBase[c.base.id]?.rateLimited ?? 0);
    }
    return [report(counted, wallMs, after.rateLimited - before.rateLimited)];
  } finally {
    for (const replica of replicas) await stopService(replica);
    await sandbox.stop();
    await shared.drop();
  }
}

interface Stats {
  rateLimited: number;
  byBase: Record<string, { requests: number; rateLimited: number }>;
}

/** The least a count can take at the per-base limit: its minimum requests at 5 a second, plus one latency. */
const minimumOf = (summary: BaseSummary) => summary.tables.reduce((sum, table) => sum + Math.ceil(table.records / PAGE_SIZE), 0) + 1;
const floorMs = (requests: number) => (requests / SANDBOX.rateLimitPerSecond) * 1000 + SANDBOX.latencyMs;

function report(counted: Counted[], wallMs: number, sandboxRateLimited: number): ReportTable {
  const rows = counted.map((c) => {
    const minimum = minimumOf(c.base.summary);
    const ratio = c.wallMs / floorMs(minimum);
    const pass = c.status === 200 && c.requests === minimum && c.rateLimited === 0 && ratio <= WALL_TARGET_FACTOR;
    return [
      `${c.base.name} (replica ${c.replica})`,
      String(c.status),
      count(c.requests),
      count(minimum),
      count(c.rateLimited),
      seconds(c.wallMs),
      seconds(floorMs(minimum)),
      ratio.toFixed(3),
      verdict(pass),
    ];
  });
  const floor = Math.max(...counted.map((c) => floorMs(minimumOf(c.base.summary))));
  const all = counted.every((c) => c.status === 200 && c.requests === minimumOf(c.base.summary) && c.rateLimited === 0);
  rows.push([
    '**all three**',
    '—',
    count(counted.reduce((s, c) => s + c.requests, 0)),
    count(counted.reduce((s, c) => s + minimumOf(c.base.summary), 0)),
    count(sandboxRateLimited),
    seconds(wallMs),
    seconds(floor),
    (wallMs / floor).toFixed(3),
    verdict(all && sandboxRateLimited === 0 && wallMs / floor <= WALL_TARGET_FACTOR),
  ]);
  return {
    title:
      `Count by ${REPLICAS} replicas (built service, PostgreSQL + Redis, standalone sandbox): ${REPLICAS} bases of one upstream user, ` +
      `${count(TABLES * RECORDS_PER_TABLE)} records in ${TABLES} tables each, each counted by another replica, all at once; ` +
      `sandbox ${SANDBOX.rateLimitPerSecond} req/s per base, 50 req/s per user, ${SANDBOX.latencyMs} ms latency`,
    headers: ['base', 'status', 'requests', 'minimum', '429s', 'wall', 'floor', 'wall / floor', 'result'],
    rows,
    notes: [
      `Targets: requests = minimum (1 schema read + Σ ceil(records / ${PAGE_SIZE})), 0 × 429, wall ≤ ${WALL_TARGET_FACTOR} × floor. ` +
        'Requests and 429s are the sandbox’s own counts (GET /_control/stats), in its own process, so its pauses do not ' +
        'share an event loop with the replicas.',
    ],
  };
}
