import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { loadConfig, type Config } from '../../src/config.js';
import { createScheduler, type Scheduler } from '../../src/jobs/agenda.js';
import { createLogger } from '../../src/logger.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { openServiceRuntime } from '../../src/service-runtime.js';
import type { Services } from '../../src/services.js';
import { TEST_SECRET_KEY } from './test-app.js';

export interface TestAccount {
  accountId: string;
  apiKey: string;
}

/** The services on a real temporary database and the in-process sandbox, without HTTP: where the rules are tested. */
export interface TestServices {
  services: Services;
  dataSource: DataSource;
  sandbox: Sandbox;
  config: Config;
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
  /** The Agenda scheduler (option `scheduler`): it plans each tracked base's daily job; it runs jobs only with SCHEDULER_RUN_JOBS=true. */
  scheduler?: Scheduler;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  /**
   * Start the scheduler as src/server.ts does (createScheduler, then start): needed by every test that tracks a base,
   * whose daily job it plans. Jobs are planned but not run unless env says SCHEDULER_RUN_JOBS=true.
   */
  scheduler?: boolean;
}

let logBases = 0;

export async function startTestServices(env: Record<string, string> = {}, options: TestServiceOptions = {}): Promise<TestServices> {
  const dir = mkdtempSync(join(tmpdir(), 'basewatch-services-'));
  const config = loadConfig({
    ...(env.DATABASE_URL?.startsWith('postgres') ? { SECRET_KEY: TEST_SECRET_KEY } : {}),
    DATABASE_URL: `sqlite:${join(dir, 'test.sqlite')}`,
    SANDBOX_STATE_FILE: join(dir, 'sandbox-state.json'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    UPSTREAM_LOCKOUT_MS: '300',
    UPSTREAM_TIMEOUT_MS: '5000',
    UPSTREAM_RETRY_BASE_DELAY_MS: '20',
    UPSTREAM_MAX_RETRIES: '4',
    // Jobs are planned but not run, unless a test asks: a count at an unlucky hour would disturb other tests.
    ...(options.scheduler ? { SCHEDULER_RUN_JOBS: 'false' } : {}),
    ...env,
  });
  const logger = createLogger(config.logLevel);
  const runtime = await openServiceRuntime(config, logger);
  const { services, sandbox } = runtime;
  if (!sandbox) throw new Error('the service tests need the built-in sandbox (UPSTREAM_MODE=sandbox)');
  let scheduler: Scheduler | undefined;
  if (options.scheduler) {
    try {
      scheduler = await createScheduler(config, runtime.dataSource, services, logger, runtime.metrics);
      await scheduler.start();
    } catch (error) {
      await scheduler?.stop(0).catch(() => undefined);
      await runtime.close();
      throw error;
    }
  }
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
    config,
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
    scheduler,
    close: async () => {
      // As src/server.ts shuts down: running counts and jobs end before the database closes.
      await services.usageCounts.drain();
      await scheduler?.stop(config.shutdownTimeoutMs);
      await runtime.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
