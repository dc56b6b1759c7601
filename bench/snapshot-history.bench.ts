import { join } from 'node:path';
import { generateApiKey } from '../src/services/credentials/api-key.js';
import { createLogger } from '../src/logger.js';
import { startServer } from '../src/server.js';
import { bareReference } from './support/bare-server.js';
import { buildService, startBuiltService, stopService } from './support/built-service.js';
import { send, sendExpecting } from './support/http.js';
import { defaultLoadGenerator, runLoad } from './support/load.js';
import { wrkAvailable } from './support/wrk.js';
import { count, ms, type ReportTable } from './support/markdown.js';
import { median } from './support/percentiles.js';
import { profileService } from './support/profile-service.js';
import { benchConfig } from './support/bench-config.js';
import { progress } from './support/progress.js';
import { measureSnapshotPhases } from './support/snapshot-breakdown.js';
import { loadTable, profileTable, stepsTable, type Measured, type Scenario, type Unloaded } from './support/snapshot-report.js';
import { seedSnapshotHistory } from './support/snapshot-seed.js';
import { withTempDir } from './support/temp-dir.js';

const HISTORY = { tables: 50, days: 1_826, lastDay: '2025-12-31' };
const LOAD = { connections: 32, warmUpSeconds: 3, seconds: 15 };
const P99_TARGET_MS = 25;
const PROFILE_SECONDS = 10;
const UNLOADED_SAMPLES = 30;
// The configuration's ceiling (it refuses more than 1,000,000): far above what this load sends in a minute.
const API_RATE_LIMIT_PER_MINUTE = '1000000';

/** Snapshot history reads from the built service in its own process, under 32 concurrent keep-alive clients. */
export async function runSnapshotHistoryBench(): Promise<ReportTable[]> {
  return withTempDir('basewatch-bench-snapshots-', async (dir) => {
    const databasePath = join(dir, 'history.sqlite');
    const apiKey = generateApiKey();
    progress(`snapshots: load generator ${defaultLoadGenerator()}`);
    const { history, phases, bodyBytes } = await seedAndTimeSteps(databasePath, apiKey);
    progress('snapshots: building the service (tsc -p tsconfig.build.json)');
    buildService();
    const env = { DATABASE_URL: `sqlite:${databasePath}`, BOOTSTRAP_API_KEY: apiKey, LOG_LEVEL: 'warn', API_RATE_LIMIT_PER_MINUTE };
    const service = await startBuiltService(env);
    let measured: Measured[];
    let unloaded: Unloaded;
    try {
      measured = await measureScenarios(service.url, apiKey, history.usageBaseId, service.pid);
      measured.push(await bareReference(measured[0], LOAD));
      unloaded = await measureUnloaded(`${service.url}${pagePath(history.usageBaseId, 365)}`, apiKey);
    } finally {
      await stopService(service);
    }
    progress(`snapshots: profiling limit=365 for ${PROFILE_SECONDS} s (node --cpu-prof), ${LOAD.connections} clients, gzip`);
    const profile = await profileService(env, pagePath(history.usageBaseId, 365), apiKey, dir, PROFILE_SECONDS, {
      connections: LOAD.connections,
      acceptEncoding: 'gzip',
    });
    const title =
      `Snapshot history: ${count(HISTORY.days)} days × ${HISTORY.tables} tables, ` +
      'GET /usage/bases/{id}/snapshots, built service in its own process';
    return [
      loadTable(title, measured, `${LOAD.warmUpSeconds} s warm-up, then ${LOAD.seconds} s measured.`),
      stepsTable(phases, unloaded, bodyBytes, measured[0].load, LOAD.connections),
      profileTable(profile),
    ];
  });
}

/** Seeds through the services of an in-process app, and times the steps of one request while it is up. */
async function seedAndTimeSteps(databasePath: string, apiKey: string) {
  const config = benchConfig(databasePath);
  const running = await startServer(config, createLogger(config.logLevel));
  try {
    progress(`snapshots: seeding ${count(HISTORY.days)} days of a ${HISTORY.tables}-table base`);
    const started = performance.now();
    const history = await seedSnapshotHistory(running, apiKey, HISTORY);
    progress(`snapshots: seeded in ${ms(performance.now() - started)}; timing the steps of one request`);
    const steps = await measureSnapshotPhases({ running, databasePath, apiKey, ...history, limit: 365 });
    return { history, ...steps };
  } finally {
    await running.close();
  }
}

const pagePath = (usageBaseId: string, limit: number, cursor?: string) =>
  `/usage/bases/${usageBaseId}/snapshots?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;

async function measureScenarios(url: string, apiKey: string, usageBaseId: string, serverPid: number): Promise<Measured[]> {
  const measured: Measured[] = [];
  for (const scenario of await scenariosFor(url, apiKey, usageBaseId)) {
    progress(`snapshots: ${scenario.name}, ${scenario.connections} client(s), ${LOAD.seconds} s`);
    const target = `${url}${scenario.path}`;
    const { bytes } = await send(target, { apiKey });
    const load = await runLoad({
      ...LOAD,
      url: target,
      apiKey,
      connections: scenario.connections,
      serverPid,
      acceptEncoding: scenario.acceptEncoding,
      generator: scenario.generator,
    });
    measured.push({ scenario, bodyBytes: bytes, load });
  }
  return measured;
}

async function scenariosFor(url: string, apiKey: string, usageBaseId: string): Promise<Scenario[]> {
  const first = await sendExpecting<{ nextCursor?: string }>(200, `${url}${pagePath(usageBaseId, 365)}`, { apiKey });
  if (!first.nextCursor) throw new Error('The first page of 365 days has no nextCursor');
  const { connections } = LOAD;
  const target: Scenario = {
    name: 'limit=365, Accept-Encoding: gzip',
    path: pagePath(usageBaseId, 365),
    connections,
    p99TargetMs: P99_TARGET_MS,
    acceptEncoding: 'gzip',
  };
  // wrk measures on new connections and corrects for coordinated omission (see LoadGenerator): shown for comparison.
  const comparison: Scenario[] = defaultLoadGenerator() !== 'wrk' && wrkAvailable() ? [{ ...target, generator: 'wrk' }] : [];
  return [
    target,
    ...comparison,
    { name: 'limit=365, uncompressed', path: pagePath(usageBaseId, 365), connections, p99TargetMs: P99_TARGET_MS },
    {
      name: `limit=365, cursor=${first.nextCursor} (2nd page), gzip`,
      path: pagePath(usageBaseId, 365, first.nextCursor),
      connections,
      acceptEncoding: 'gzip',
    },
    { name: 'limit=30, gzip', path: pagePath(usageBaseId, 30), connections, acceptEncoding: 'gzip' },
    { name: 'limit=365, one client (no queueing), uncompressed', path: pagePath(usageBaseId, 365), connections: 1 },
  ];
}

/** Single requests one after another, each on a new connection: one request's latency with nothing queued. */
async function measureUnloaded(url: string, apiKey: string): Promise<Unloaded> {
  const firstByte: number[] = [];
  const lastByte: number[] = [];
  for (let i = 0; i < UNLOADED_SAMPLES; i++) {
    const result = await send(url, { apiKey });
    firstByte.push(result.firstByteMs);
    lastByte.push(result.totalMs);
  }
  return { firstByteMs: median(firstByte), lastByteMs: median(lastByte) };
}
