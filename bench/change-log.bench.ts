import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { dropKeys } from '../test/support/redis.js';
import { generateApiKey } from '../src/services/credentials/api-key.js';
import { measureBareServer } from './support/bare-server.js';
import { buildService, readOnlyServiceEnv, startBuiltService, stopService } from './support/built-service.js';
import { seedChangeLog, type SeededChangeLog } from './support/change-log-seed.js';
import { send, sendExpecting } from './support/http.js';
import { runLoad } from './support/load.js';
import { count, mib, ms, seconds, type ReportTable } from './support/markdown.js';
import { median } from './support/percentiles.js';
import { progress } from './support/progress.js';
import { loadTable, type Measured, type Scenario } from './support/snapshot-report.js';
import { withTempDir } from './support/temp-dir.js';
import { workersEnv } from './support/workers-env.js';

const LOG = { entries: 1_000_000, days: 180, until: '2026-11-01T00:00:00.000Z' };
const LOAD = { connections: 32, warmUpSeconds: 3, seconds: 15 };
const PAGE = 50;
const DEEP_PAGE = 2_000;
const DISTINCT_PAGES = 1_000;
/**
 * The service keeps 16 MiB of rendered change pages (changes.routes.ts), about 540 of these 24 KiB pages with their
 * gzip room: a cycle through more pages than that, in order, finds none of them kept (least recently used goes first).
 */
const MIN_PAGES_TO_MISS = 700;
const P99_TARGET_MS = 25;
const UNLOADED_SAMPLES = 30;
/** Issue 17: every row under p99 25 ms with two serving processes (which need Redis: issue 24). */
const WORKERS = [1, 2] as const;

interface ChangePage {
  records: unknown[];
  nextCursor?: string;
}

/**
 * GET /monitoring-config/{id}/changes on 1,000,000 entries of one config (180 days), from the built service in its
 * own process under 32 concurrent keep-alive clients, 50-entry pages.
 */
export async function runChangeLogBench(): Promise<ReportTable[]> {
  return withTempDir('basewatch-bench-changes-', async (dir) => {
    const databasePath = join(dir, 'changes.sqlite');
    const apiKey = generateApiKey();
    progress(`changes: seeding ${count(LOG.entries)} entries over ${LOG.days} days (one transaction, straight into SQLite)`);
    const started = performance.now();
    const log = await seedChangeLog(databasePath, apiKey, LOG);
    const seedMs = performance.now() - started;
    progress(`changes: seeded in ${seconds(seedMs)}, ${mib(log.fileBytes)}; building the service (tsc -p tsconfig.build.json)`);
    buildService();
    let scenarios: Scenario[] | undefined;
    const runs: WorkersRun[] = [];
    const redisPrefix = `basewatch-bench:changes:${randomBytes(4).toString('hex')}:`;
    for (const workers of WORKERS) {
      const service = await startBuiltService({ ...readOnlyServiceEnv(databasePath, apiKey), ...workersEnv(workers, redisPrefix) });
      try {
        scenarios ??= await scenariosFor(service.url, apiKey, log);
        const unloaded: Array<[string, number, number]> = [];
        const measured: Measured[] = [];
        for (const scenario of scenarios) {
          const target = `${service.url}${scenario.path}`;
          const first = await send(target, { apiKey });
          if (first.status !== 200) throw new Error(`${scenario.name}: ${first.status} ${first.body.slice(0, 300)}`);
          const records = (JSON.parse(first.body) as Partial<ChangePage>).records?.length ?? 0;
          const samples = (scenario.paths ?? [scenario.path]).map((path) => `${service.url}${path}`);
          unloaded.push([scenario.name, records, await unloadedMedian(samples, apiKey)]);
          progress(`changes: WEB_CONCURRENCY=${workers}, ${scenario.name}, ${scenario.connections} clients, ${LOAD.seconds} s`);
          const load = await runLoad({
            ...LOAD,
            url: target,
            paths: scenario.paths,
            apiKey,
            connections: scenario.connections,
            // The primary and its workers: CPU is summed over the process tree.
            serverPid: service.pid,
          });
          measured.push({ scenario, bodyBytes: first.bytes, load });
        }
        if (workers === 1) measured.push(await bareReference(measured.find((m) => m.scenario.paths) ?? measured[0]));
        runs.push({ workers, measured, unloaded });
      } finally {
        await stopService(service);
        await dropKeys(redisPrefix);
      }
    }
    const title = (workers: number) =>
      `Change log: ${count(LOG.entries)} entries of one config over ${LOG.days} days, GET /monitoring-config/{id}/changes?limit=${PAGE}, built service in its own process, WEB_CONCURRENCY=${workers}${workers > 1 ? ' with Redis' : ''}`;
    return [
      ...runs.map(({ workers, measured }) =>
        loadTable(
          title(workers),
          measured,
          `${LOAD.warmUpSeconds} s warm-up, then ${LOAD.seconds} s measured. A row without "different pages" sends one ` +
            'page over and over: after the second, the service reads it from its read-model cache, kept under the ' +
            'config’s changes version, and renders it (a dashboard polling the newest changes). A "different pages" row ' +
            'cycles through more pages than that cache admits, so every request runs the query.',
        ),
      ),
      workersTable(runs),
      capacityTable(runs[0].measured),
      unloadedTable(runs[0].unloaded, log, seedMs),
    ];
  });
}

interface WorkersRun {
  workers: number;
  measured: Measured[];
  unloaded: Array<[string, number, number]>;
}

/** Each page at one worker and at two (node:cluster on this machine's two cores, the load generator beside them). */
function workersTable(runs: WorkersRun[]): ReportTable {
  const [one, two] = runs;
  return {
    title: `Change log: one serving process against ${two.workers} (WEB_CONCURRENCY), ${LOAD.connections} clients`,
    headers: ['request', 'req/s (1)', `req/s (${two.workers})`, 'ratio', 'p99 (1)', `p99 (${two.workers})`, 'target', 'result'],
    rows: two.measured.map(({ scenario, load }) => {
      const single = one.measured.find((m) => m.scenario.name === scenario.name)!.load;
      const target = scenario.p99TargetMs;
      const failures = load.errors + load.non2xx;
      return [
        scenario.name,
        single.requestsPerSecond.toFixed(0),
        load.requestsPerSecond.toFixed(0),
        `${(load.requestsPerSecond / single.requestsPerSecond).toFixed(2)}×`,
        ms(single.p99),
        ms(load.p99),
        target ? `p99 < ${target} ms` : '—',
        target ? (load.p99 < target && failures === 0 ? 'pass' : 'fail') : '—',
      ];
    }),
    notes: [
      `Both measured back to back on the same database. With ${two.workers} workers each is a replica sharing its ` +
        'state through Redis on this host, and the primary serves no API; the machine has 2 cores for the workers, Redis and the load generator together.',
    ],
  };
}

/** The first scenario's user CPU per request and body, served by a bare node:http server under the same load. */
async function bareReference({ scenario, bodyBytes, load }: Measured): Promise<Measured> {
  const cpuMs = load.serverCpuPerRequest?.userMs ?? 0;
  progress(`changes: bare node:http server with ${ms(cpuMs)} of CPU per request (${scenario.name}), ${LOAD.seconds} s`);
  return measureBareServer(cpuMs, bodyBytes, { ...LOAD, connections: scenario.connections });
}

async function scenariosFor(url: string, apiKey: string, log: SeededChangeLog): Promise<Scenario[]> {
  const path = (query: Record<string, string>) =>
    `/monitoring-config/${log.configId}/changes?${new URLSearchParams({ ...query, limit: String(PAGE) })}`;
  /** The paths of a query's first `pages` pages, following nextCursor. */
  const walk = async (query: Record<string, string>, pages: number): Promise<string[]> => {
    const paths = [path(query)];
    while (paths.length < pages) {
      const { nextCursor } = await sendExpecting<ChangePage>(200, `${url}${paths[paths.length - 1]}`, { apiKey });
      if (!nextCursor) break;
      paths.push(path({ ...query, cursor: nextCursor }));
    }
    return paths;
  };
  const [table1, , , , table5] = log.tableIds;
  const [user1, , user3] = log.userEmails;
  const threeFilters = { eventType: 'record_update', tableId: table1, userEmail: user1 };
  progress(`changes: following nextCursor to page ${count(DEEP_PAGE)}, and through ${count(DISTINCT_PAGES)} pages of each filtered query`);
  const unfiltered = await walk({}, DEEP_PAGE);
  if (unfiltered.length < DEEP_PAGE) throw new Error(`The log ended at page ${unfiltered.length}`);
  const byTable = await walk({ tableId: table1 }, DISTINCT_PAGES);
  const byThree = await walk(threeFilters, DISTINCT_PAGES);
  const target = { p99TargetMs: P99_TARGET_MS, connections: LOAD.connections };
  const distinct = (name: string, paths: string[]): Scenario => ({
    name: `${name}: ${count(paths.length)} different pages in turn${paths.length < MIN_PAGES_TO_MISS ? ' (few enough to be kept: some hits)' : ''}`,
    path: paths[0],
    paths,
    ...target,
  });
  return [
    { name: 'no filter', path: path({}), ...target },
    { name: 'one filter: tableId (the busiest table)', path: path({ tableId: table1 }), ...target },
    { name: 'three filters: eventType=record_update, tableId, userEmail (busiest table and user)', path: path(threeFilters), ...target },
    {
      name: 'three filters: eventType=record_update, tableId, userEmail (5th table, 3rd user)',
      path: path({ eventType: 'record_update', tableId: table5, userEmail: user3 }),
      ...target,
    },
    {
      name: `deep cursor: page ${count(DEEP_PAGE)} (entries ${count((DEEP_PAGE - 1) * PAGE + 1)}…)`,
      path: unfiltered[DEEP_PAGE - 1],
      ...target,
    },
    // Every request a page the page cache does not hold: the query itself, on every request.
    distinct('no filter, pages 1…2,000', unfiltered),
    distinct('one filter: tableId (the busiest table)', byTable),
    distinct('three filters (busiest table and user)', byThree),
    {
      // Beyond the target scenarios: a handful match, so the sparsest filter's whole index range is read.
      name: 'worst case seen: four filters that rarely meet (column_delete, busiest table, 10th user, publicApiCall)',
      path: path({ eventType: 'column_delete', tableId: table1, userEmail: log.userEmails[9], source: 'publicApiCall' }),
      connections: LOAD.connections,
    },
    // What the same process gives an endpoint with next to no work (auth, rate limit, logging, routing, JSON).
    { name: 'for comparison: GET /usage/bases (an empty list)', path: '/usage/bases', connections: LOAD.connections },
  ];
}

/**
 * What the server's CPU per request implies when it has a core to itself: its throughput ceiling, and the latency of
 * a closed loop of 32 clients at that ceiling (Little's law: clients / throughput). Unlike the measured latencies,
 * this does not depend on what else the machine runs.
 */
function capacityTable(measured: Measured[]): ReportTable {
  const targetThroughput = LOAD.connections / (P99_TARGET_MS / 1000);
  return {
    title: 'Change log: what the CPU per request implies on a free core',
    headers: ['request', 'server CPU / req', 'ceiling on one core', `latency of ${LOAD.connections} clients at the ceiling`],
    rows: measured.map(({ scenario, load }) => {
      const cpu = load.serverCpuPerRequest;
      if (!cpu) return [scenario.name, 'n/a', 'n/a', 'n/a'];
      const perRequestMs = cpu.userMs + cpu.systemMs;
      return [scenario.name, ms(perRequestMs), `${(1000 / perRequestMs).toFixed(0)} req/s`, ms(LOAD.connections * perRequestMs)];
    }),
    notes: [
      `p99 < ${P99_TARGET_MS} ms with ${LOAD.connections} clients that each send again at once needs about ` +
        `${targetThroughput.toFixed(0)} req/s from the one event loop, i.e. at most ${ms(1000 / targetThroughput)} of CPU per ` +
        'request on average; queueing spreads the tail further, so the bare node:http row (the same CPU and body, no ' +
        'Express, no database) shows what p99 one event loop reaches with this much work. Compare the framework’s own ' +
        'cost in the GET /usage/bases row.',
    ],
  };
}

/** One request at a time, each on a new connection, taking the urls in turn: one page's latency with nothing queued. */
async function unloadedMedian(urls: string[], apiKey: string): Promise<number> {
  const totals: number[] = [];
  for (let i = 0; i < UNLOADED_SAMPLES; i++) totals.push((await send(urls[i % urls.length], { apiKey })).totalMs);
  return median(totals);
}

function unloadedTable(rows: Array<[string, number, number]>, log: SeededChangeLog, seedMs: number): ReportTable {
  return {
    title: 'Change log: one request at a time (median of 30, new connection each)',
    headers: ['request', 'entries on the page', 'median'],
    rows: rows.map(([name, records, medianMs]) => [name, String(records), ms(medianMs)]),
    notes: [
      `Seed: ${count(LOG.entries)} entries (20 tables and 10 users Zipf-distributed, 9 event types, 10 sources, 1–3 ` +
        `fieldIds per update, weekday/office-hour peaks, a fifth in same-instant bursts) written in ${seconds(seedMs)}; ` +
        `SQLite file ${mib(log.fileBytes)}. The page's leading index is chosen per request by probing each filter's ` +
        'density near the cursor (src/services/audit/change-query.service.ts).',
    ],
  };
}
