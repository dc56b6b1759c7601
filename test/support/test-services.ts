import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import type { DataSource } from 'typeorm';
import type { Config } from '../../src/config.js';
import { afterAll, beforeAll } from 'vitest';
import { createScheduler, type Scheduler } from '../../src/jobs/agenda.js';
import { createLogger } from '../../src/logger.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { openServiceRuntime } from '../../src/service-runtime.js';
import type { Services } from '../../src/services.js';
import { admin, createTestDatabase } from './postgres.js';
import { sandboxApi, type SandboxApi } from './sandbox-api.js';
import { testConfig } from './test-app.js';
import { DEFAULT_SANDBOX_TOKEN } from '../../src/config.js';

/**
 * For files where the pace of upstream requests is not under test: the client sends up to 50 a second (5 by default,
 * the platform's limit per base), and the file lifts the sandbox's limit (`faults.update({ rateLimitPerSecond })`),
 * so that a count or a seed of a few hundred records takes a tenth of a second instead of one or two. The client's
 * pacing has tests of its own (test/upstream/rate-limiter.test.ts, the replicas' shared budget, the benchmarks).
 */
export const FAST_UPSTREAM = { UPSTREAM_REQUESTS_PER_SECOND: '50' };

export interface TestAccount {
  accountId: string;
  apiKey: string;
}

/** The services on a real temporary database and the in-process sandbox, without HTTP: where the rules are tested. */
export interface TestServices {
  services: Services;
  dataSource: DataSource;
  sandbox: Sandbox;
  /** The sandbox's own API, called as an outside user would, to make upstream changes (sandbox-api.ts). */
  api: SandboxApi;
  config: Config;
  /** Agenda with every job defined; jobs run only with SCHEDULER_RUN_JOBS=true (audit-support.ts AUDIT_APP_ENV). */
  scheduler: Scheduler;
  dir: string;
  /** The first test account. */
  accountId: string;
  /** A second, unrelated account (isolation tests). */
  other: TestAccount;
  newAccount(name?: string): Promise<TestAccount>;
  /** The upstream id of a demo base (factories.ts DEMO_BASES), from the sandbox's store. */
  baseId(name: string): string;
  /** A new empty base of the sandbox to log into (see factories.ts newLogBase). */
  newLogBase(): string;
  close(): Promise<void>;
}

let logBases = 0;

export interface TestServiceOptions {
  /** Where the services' log lines go (with LOG_LEVEL in env: tests that read what was logged). */
  logStream?: DestinationStream;
}

export async function startTestServices(env: Record<string, string> = {}, options: TestServiceOptions = {}): Promise<TestServices> {
  const dir = mkdtempSync(join(tmpdir(), 'basewatch-services-'));
  const config = testConfig(dir, env);
  const logger = createLogger(config.logLevel, options.logStream);
  const runtime = await openServiceRuntime(config, logger);
  const { services, sandbox } = runtime;
  if (!sandbox) throw new Error('the service tests need the built-in sandbox (UPSTREAM_MODE=sandbox)');
  // As src/server.ts starts it: every job defined, each tracked base's daily job planned.
  let scheduler: Scheduler | undefined;
  try {
    scheduler = await createScheduler(config, runtime.dataSource, services, logger, runtime.metrics);
    await scheduler.start();
  } catch (error) {
    await scheduler?.stop(0).catch(() => undefined);
    await runtime.close();
    throw error;
  }
  const jobs = scheduler;
  const newAccount = async (name = 'test'): Promise<TestAccount> => {
    const { account, apiKey } = await services.accounts.create(name);
    return { accountId: account.id, apiKey };
  };
  const first = await newAccount('first');
  const other = await newAccount('other');
  return {
    services,
    dataSource: runtime.dataSource,
    sandbox,
    api: sandboxApi('', DEFAULT_SANDBOX_TOKEN, runtime.sandboxUrl),
    config,
    scheduler: jobs,
    dir,
    accountId: first.accountId,
    other,
    newAccount,
    baseId: (name) => {
      const base = sandbox.store.listBases().find((candidate) => candidate.name === name);
      if (!base) throw new Error(`no upstream base named ${name}`);
      return base.id;
    },
    newLogBase: () => sandbox.store.addBase({ name: `Service log base ${++logBases}`, tables: [] }).id,
    close: async () => {
      // As src/server.ts shuts down: running counts and jobs end before the database closes.
      await services.usageCounts.drain();
      await jobs.stop(config.shutdownTimeoutMs);
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A run's database: the environment that points the services at it, and what removes it afterwards. */
export interface RunDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** SQLite always; PostgreSQL too when its server answers (TEST_POSTGRES_URL), each run in a database of its own. */
export async function serviceDatabases(): Promise<Array<{ name: string; database: () => Promise<RunDatabase> }>> {
  const sqlite = { name: 'SQLite', database: async () => ({ env: {}, drop: async () => undefined }) };
  if (!(await admin('SELECT 1'))) return [sqlite];
  const postgres = async () => {
    const db = await createTestDatabase();
    return { env: { DATABASE_URL: db.url }, drop: db.drop };
  };
  return [sqlite, { name: 'PostgreSQL', database: postgres }];
}

/**
 * The services of the describe block this is called in, on `database` (serviceDatabases): started before its tests
 * (before the block's own beforeAll hooks), closed and the database dropped after them. What it returns reads through
 * to the started services.
 */
export function servicesOn(database: () => Promise<RunDatabase>, env: Record<string, string> = {}): TestServices {
  let started: TestServices | undefined;
  let drop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const db = await database();
    drop = db.drop;
    started = await startTestServices({ ...env, ...db.env });
  });
  afterAll(async () => {
    await started?.close();
    await drop();
  });
  return new Proxy({} as TestServices, {
    get: (_, property) => {
      if (!started) throw new Error('the services start in a beforeAll hook: use them in hooks and tests');
      return started[property as keyof TestServices];
    },
  });
}
