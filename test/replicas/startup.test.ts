import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresBackend } from '@agendajs/postgres-backend';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '../../ormconfig.js';
import { migrations } from '../../src/migrations/index.js';
import { UNIQUE_JOBS } from '../../src/jobs/unique-jobs.js';
import { admin, createTestDatabase, query } from '../support/postgres.js';
import { until } from '../support/eventually.js';
import { builtServiceMain } from '../support/built-service.js';
import { ROOT, runBuiltServiceToExit, startBuiltService, type FinishedProcess, type ServiceProcess } from '../support/processes.js';
import { dropKeys, redisAvailable, TEST_REDIS_URL, testKeyPrefix } from '../support/redis.js';
import { TEST_SECRET_KEY } from '../support/test-app.js';

const available = (await admin('SELECT 1')) && (await redisAvailable());
/** The built service (test/support/built-service.ts), set before the first test. */
let MAIN: string;
const REPLICAS = 3;
const OTHER_KEY = 'YW5vdGhlci1rZXktdGhhbi10aGUtb25lLXRoYXQtc2VhbGVkLXRoZW0';

const prefix = testKeyPrefix('startup');
const drops: Array<() => Promise<void>> = [];
const running: ServiceProcess[] = [];

async function newDatabase(): Promise<string> {
  const database = await createTestDatabase();
  drops.push(database.drop);
  return database.url;
}

const replicaEnv = (databaseUrl: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: databaseUrl,
  REDIS_URL: TEST_REDIS_URL,
  REDIS_KEY_PREFIX: prefix,
  SECRET_KEY: TEST_SECRET_KEY,
  SANDBOX_STATE_FILE: 'off',
  ...extra,
});

/**
 * Starts `count` replicas at the same moment and waits until each is ready (or fails with what one printed).
 * `lineUp` runs while they start: what holds them at one point, to let them go together.
 */
async function startTogether(databaseUrl: string, count = REPLICAS, lineUp?: () => Promise<void>): Promise<ServiceProcess[]> {
  const starting = Promise.all(Array.from({ length: count }, () => startBuiltService(replicaEnv(databaseUrl), MAIN)));
  await lineUp?.();
  const started = await starting;
  running.push(...started);
  for (const replica of started) {
    await until(
      () => fetch(`${replica.url}/readyz`).then((res) => res.status),
      (status) => status === 200,
    );
  }
  return started;
}

async function stop(replicas: ServiceProcess[]): Promise<Array<number | null>> {
  for (const replica of replicas) replica.child.kill('SIGTERM');
  return Promise.all(replicas.map((replica) => replica.exited));
}

/** Each migration applied once, and Agenda's table with one unique index per unique job. */
async function expectSetUpOnce(databaseUrl: string): Promise<void> {
  const applied = await query<{ name: string }>(databaseUrl, 'SELECT name FROM migrations ORDER BY id');
  expect(applied.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));
  const indexes = await query<{ indexname: string }>(
    databaseUrl,
    "SELECT indexname FROM pg_indexes WHERE tablename = 'agenda_jobs' AND indexname LIKE 'agenda_jobs_unique_%'",
  );
  expect(indexes).toHaveLength(UNIQUE_JOBS.length);
}

/** A refused start: a non-zero exit with one line on stderr, no stack trace. */
function expectRefused(result: FinishedProcess, message: RegExp): void {
  expect(result.code, result.stderr).toBe(1);
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe.skipIf(!available)('replicas started together (node dist/src/main.js)', () => {
  beforeAll(async () => {
    MAIN = await builtServiceMain();
  }, 180_000);
  afterAll(async () => {
    await stop(running.filter((replica) => replica.child.exitCode === null));
    for (const drop of drops) await drop();
    await dropKeys(prefix);
  }, 120_000);

  let freshUrl: string;

  it('all become ready on a fresh database, which is migrated and set up once', async () => {
    freshUrl = await newDatabase();
    const replicas = await startTogether(freshUrl);
    await expectSetUpOnce(freshUrl);
    // Their start-up lock was given back: a fourth starts now.
    const fourth = await startTogether(freshUrl, 1);
    expect(await stop([...replicas, ...fourth])).toEqual(Array(REPLICAS + 1).fill(0));
  }, 180_000);

  it('all become ready on a database that an earlier version left one migration behind', async () => {
    const url = await newDatabase();
    const earlier = new DataSource({ ...dataSourceOptions({ type: 'postgres', url }), migrations: migrations.slice(0, -1) });
    await earlier.initialize();
    await earlier.runMigrations({ transaction: 'each' });
    await earlier.destroy();
    // The job store as the earlier version made it: Agenda's own backend, with its function and trigger.
    const earlierJobs = new PostgresBackend({ connectionString: url, disableNotifications: true });
    await earlierJobs.connect();
    await earlierJobs.disconnect();

    // Lined up: the migrations table stays locked until all three wait for a lock (that table's, or the start-up
    // lock one of them holds), so none reads which migrations are applied before the others start; then all go.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE migrations IN ACCESS EXCLUSIVE MODE');
    const replicas = await startTogether(url, REPLICAS, async () => {
      await until(
        () =>
          query<{ waiting: number }>(
            url,
            "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
          ),
        ([row]) => row!.waiting === REPLICAS,
        60_000,
      );
      await blocker.query('COMMIT');
      await blocker.end();
    });
    await expectSetUpOnce(url);
    expect(await stop(replicas)).toEqual(Array(REPLICAS).fill(0));
  }, 180_000);

  it('refuses, in one line, a process whose SECRET_KEY is not the deployment’s, or is not set', async () => {
    const replicas = await startTogether(freshUrl, 1);
    expectRefused(await runBuiltServiceToExit(replicaEnv(freshUrl, { SECRET_KEY: OTHER_KEY }), MAIN), /SECRET_KEY does not match/);
    const { SECRET_KEY: _unset, ...withoutKey } = replicaEnv(freshUrl);
    expectRefused(await runBuiltServiceToExit(withoutKey, MAIN), /SECRET_KEY must be set on PostgreSQL/);
    const stored = await query<{ fingerprint: string }>(freshUrl, 'SELECT fingerprint FROM deployment_key');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.fingerprint).not.toContain(TEST_SECRET_KEY);
    expect(await stop(replicas)).toEqual([0]);
  }, 120_000);

  it('refuses a process without REDIS_URL beside replicas with it, and the reverse', async () => {
    const replicas = await startTogether(freshUrl, 1);
    const { REDIS_URL: _none, ...withoutRedis } = replicaEnv(freshUrl);
    expectRefused(await runBuiltServiceToExit(withoutRedis, MAIN), /processes with REDIS_URL run on this PostgreSQL database/);
    expect(await stop(replicas)).toEqual([0]);

    const alone = await startBuiltService(withoutRedis, MAIN);
    running.push(alone);
    expectRefused(
      await runBuiltServiceToExit(replicaEnv(freshUrl), MAIN),
      /A basewatch process without REDIS_URL runs on this PostgreSQL database/,
    );
    expect(await stop([alone])).toEqual([0]);
  }, 120_000);

  it('stops at the first SIGTERM while it waits for an unreachable Redis at start', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const dir = mkdtempSync(join(tmpdir(), 'basewatch-startup-'));
    const child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
        SANDBOX_STATE_FILE: 'off',
        REDIS_URL: `redis://127.0.0.1:${closedPort}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await until(
      () => stdout,
      (text) => text.includes('Redis unreachable'),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(stdout).toContain('stopped while starting');
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
