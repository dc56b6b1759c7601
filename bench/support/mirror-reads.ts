import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { dropKeys, redisAvailable } from '../../test/support/redis.js';
import { generateApiKey } from '../../src/services/credentials/api-key.js';
import { createRandom, hashSeed } from '../../src/sandbox/prng.js';
import { bareReference } from './bare-server.js';
import { buildService, readOnlyServiceEnv, startBuiltService, stopService } from './built-service.js';
import { send } from './http.js';
import { runLoad } from './load.js';
import { count, mib, seconds, type ReportTable } from './markdown.js';
import { seedMirrorHistory, type SeededHistory } from './mirror-history-seed.js';
import type { MirrorBenchSizes } from './mirror-sizes.js';
import { progress } from './progress.js';
import { loadTable, type Measured, type Scenario } from './snapshot-report.js';
import { withTempDir } from './temp-dir.js';
import { workersEnv } from './workers-env.js';

const P99_TARGET_MS = 25;
const DISTINCT_PATHS = 2_000;

/**
 * Part 4 of the mirror bench: a record at an instant and a page of its history, from the built service in its own
 * process under 32 keep-alive clients, over a mirror written straight into SQLite (mirror-history-seed.ts). Every
 * request asks for another record (and instant) than the one before.
 */
export async function measureMirrorReads(sizes: MirrorBenchSizes): Promise<ReportTable[]> {
  return withTempDir('basewatch-bench-mirror-reads-', async (dir) => {
    const databasePath = join(dir, 'mirror.sqlite');
    const apiKey = generateApiKey();
    const { records, versions } = sizes.history;
    progress(`mirror: writing a mirror of ${count(records)} records with ${count(versions)} versions into SQLite`);
    const started = performance.now();
    const history = await seedMirrorHistory(databasePath, apiKey, { records, versions });
    const seedMs = performance.now() - started;
    progress(`mirror: written in ${seconds(seedMs)}, ${mib(history.fileBytes)}; building the service (tsc -p tsconfig.build.json)`);
    buildService();
    // One serving process, and two (WEB_CONCURRENCY, which shares its state through Redis) where Redis answers.
    const workerCounts = (await redisAvailable()) ? [1, 2] : [1];
    const redisPrefix = `basewatch-bench:mirror:${randomBytes(4).toString('hex')}:`;
    const scenarios = scenariosFor(history, sizes);
    const tables: ReportTable[] = [];
    for (const workers of workerCounts) {
      const service = await startBuiltService({ ...readOnlyServiceEnv(databasePath, apiKey), ...workersEnv(workers, redisPrefix) });
      try {
        const measured: Measured[] = [];
        for (const scenario of scenarios) {
          const first = await send(`${service.url}${scenario.path}`, { apiKey });
          if (first.status !== 200) throw new Error(`${scenario.name}: ${first.status} ${first.body.slice(0, 300)}`);
          progress(`mirror: WEB_CONCURRENCY=${workers}, ${scenario.name}, ${scenario.connections} clients, ${sizes.load.seconds} s`);
          const load = await runLoad({
            ...sizes.load,
            url: `${service.url}${scenario.path}`,
            paths: scenario.paths,
            apiKey,
            connections: scenario.connections,
            // The primary and its workers: CPU is summed over the process tree.
            serverPid: service.pid,
          });
          measured.push({ scenario, bodyBytes: first.bytes, load });
        }
        // One event loop with the same work a request and the same bytes, without our code: what this machine gives.
        if (workers === 1) {
          for (const row of measured.filter((m) => m.scenario.p99TargetMs !== undefined))
            measured.push(await bareReference(row, sizes.load));
        }
        tables.push(
          loadTable(
            `Mirror reads: ${count(history.records)} records, ${count(history.versions)} versions (SQLite), built service in its own process, WEB_CONCURRENCY=${workers}${workers > 1 ? ' with Redis' : ''}`,
            measured,
            `${sizes.load.warmUpSeconds} s warm-up, then ${sizes.load.seconds} s measured; each mirror row takes ${count(DISTINCT_PATHS)} ` +
              'different records (and instants) in turn. The two reference rows have no target: they show what this ' +
              'machine gives the same load without the mirror (the HTTP stack alone; an authenticated read of one row). ' +
              'The “JSON body” column is the first response’s.' +
              (workers === 1
                ? ' The bare node:http rows burn the user CPU a request of the mirror rows above took, in turn, and answer as many bytes: the p99 one event loop gives that much work under the same load, whatever the code.'
                : ''),
          ),
        );
      } finally {
        await stopService(service);
        await dropKeys(redisPrefix);
      }
    }
    return [...tables, seedTable(history, seedMs)];
  });
}

function scenariosFor(history: SeededHistory, sizes: MirrorBenchSizes): Scenario[] {
  const random = createRandom(hashSeed('mirror bench reads'));
  const all = [...history.hotIds, ...history.coldIds];
  const pick = (ids: string[]) => ids[Math.floor(random() * ids.length)];
  const from = Date.parse(history.from);
  const span = Date.parse(history.until) - from;
  const base = `/monitoring-config/${history.configId}/records`;
  const paths = (make: () => string) => Array.from({ length: DISTINCT_PATHS }, make);
  const target = { connections: sizes.load.connections, p99TargetMs: P99_TARGET_MS };
  const scenario = (name: string, list: string[]): Scenario => ({ name, path: list[0], paths: list, ...target });
  const at = () => encodeURIComponent(new Date(from + random() * span).toISOString());
  // No target: what the same load costs without the mirror, for reading the rows above on this machine.
  const reference = (name: string, path: string): Scenario => ({ name, path, connections: sizes.load.connections });
  return [
    reference('GET /healthz (reference: no key, no database; the HTTP stack alone)', '/healthz'),
    reference('GET /monitoring-config/{id} (reference: the key and the config, no mirror)', `/monitoring-config/${history.configId}`),
    scenario(
      'GET …/records/{recordId}?at= (any record, any instant since the seed)',
      paths(() => `${base}/${pick(all)}?at=${at()}`),
    ),
    scenario(
      'GET …/records/{recordId}?at= (the busiest tenth of the records, ~46 versions each)',
      paths(() => `${base}/${pick(history.hotIds)}?at=${at()}`),
    ),
    scenario(
      'GET …/records/{recordId}/history, first page of 50 (any record)',
      paths(() => `${base}/${pick(all)}/history`),
    ),
    scenario(
      'GET …/records/{recordId}/history, first page of 50 (the busiest tenth)',
      paths(() => `${base}/${pick(history.hotIds)}/history`),
    ),
  ];
}

function seedTable(history: SeededHistory, seedMs: number): ReportTable {
  return {
    title: 'Mirror reads: the mirror read',
    headers: ['what', 'value'],
    rows: [
      ['records (deleted at the end)', `${count(history.records)} (${count(history.deleted)})`],
      ['versions', count(history.versions)],
      ['records with half of the edits (the busiest tenth)', count(history.hotIds.length)],
      ['span of the versions', `${history.from} … ${history.until}`],
      ['SQLite file', mib(history.fileBytes)],
      ['SQLite: bytes per version (file / versions, records included)', `${count(Math.round(history.fileBytes / history.versions))} B`],
      ['written in', seconds(seedMs)],
    ],
    notes: [
      'Written straight into SQLite in the repository’s format (mirror.repository.ts, record-state.ts): a baseline of ' +
        'every record, then edits of 1–3 cells in time order, every 16th version of a record whole; 50 fields a record.',
    ],
  };
}
