import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createHttp, type Http } from './http.js';

export interface TestApp {
  running: RunningServer;
  url: string;
  dir: string;
  /** Requests as the first test account. */
  http: Http;
  apiKey: string;
  accountId: string;
  /** A second, unrelated account (isolation tests). */
  other: { http: Http; apiKey: string; accountId: string };
  newAccount(name?: string): Promise<{ http: Http; apiKey: string; accountId: string }>;
  close(): Promise<void>;
}

/** The key of every test on PostgreSQL, which refuses to run with a generated one. */
export const TEST_SECRET_KEY = 'dGVzdC1zZWNyZXQta2V5LW9mLXRoZS1wb3N0Z3Jlcy10ZXN0cw';

/**
 * A test's configuration: a fresh SQLite file in `dir` (or the PostgreSQL of `env`), the sandbox upstream with short
 * retries and lock-outs, no logs unless TEST_LOG_LEVEL, and jobs planned but not run unless a test asks (a count at
 * an unlucky hour would disturb other tests). `env` adds or overrides.
 */
export function testConfig(dir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    ...(env.DATABASE_URL?.startsWith('postgres') ? { SECRET_KEY: TEST_SECRET_KEY } : {}),
    DATABASE_URL: `sqlite:${join(dir, 'test.sqlite')}`,
    // Beside the database by default, but a PostgreSQL test's would land in the shared data/ folder.
    SANDBOX_STATE_FILE: join(dir, 'sandbox-state.json'),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    UPSTREAM_LOCKOUT_MS: '300',
    UPSTREAM_TIMEOUT_MS: '5000',
    UPSTREAM_RETRY_BASE_DELAY_MS: '20',
    UPSTREAM_MAX_RETRIES: '4',
    SCHEDULER_RUN_JOBS: 'false',
    ...env,
  });
}

/** The real app over HTTP on an ephemeral port, with a fresh SQLite file and the sandbox upstream. */
export async function startTestApp(env: Record<string, string> = {}, logStream?: DestinationStream): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'basewatch-test-'));
  const config = testConfig(dir, { PORT: '0', HOST: '127.0.0.1', ...env });
  const running = await startServer(config, createLogger(config.logLevel, logStream));
  // The test's fetch and the app share one event loop: after a test holds the loop for longer than the server's idle
  // timeout (5 s; a synchronous seed of a thousand rows on a busy machine), fetch reuses an idle connection whose
  // close is due in that same turn, and gets ECONNRESET. Idle connections outlive any such turn here.
  running.server.keepAliveTimeout = 60_000;
  const newAccount = async (name = 'test') => {
    const { account, apiKey } = await running.services.accounts.create(name);
    return { http: createHttp(running.url, apiKey), apiKey, accountId: account.id };
  };
  const first = await newAccount('first');
  const other = await newAccount('other');
  return {
    running,
    url: running.url,
    dir,
    http: first.http,
    apiKey: first.apiKey,
    accountId: first.accountId,
    other,
    newAccount,
    close: async () => {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
