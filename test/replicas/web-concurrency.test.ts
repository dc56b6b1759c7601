import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from 'graphql-ws';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { generateApiKey } from '../../src/services/credentials/api-key.js';
import { DEFAULT_SANDBOX_TOKEN } from '../../src/config.js';
import { DEMO_BASES } from '../support/factories.js';
import { until } from '../support/eventually.js';
import { builtServiceMain } from '../support/built-service.js';
import { ROOT, startWithBanner, type ServiceProcess } from '../support/processes.js';
import { dropKeys, redisAvailable, TEST_REDIS_URL, testKeyPrefix } from '../support/redis.js';
import type { JsonBody } from '../support/json-body.js';

const available = await redisAvailable();
const dir = mkdtempSync(join(tmpdir(), 'basewatch-cluster-'));
const prefix = testKeyPrefix('web-concurrency');
const apiKey = generateApiKey();
let service: ServiceProcess;
const clients: Client[] = [];
/** Requests a minute per key: enough for the tests before the budget's own. */
const BUDGET = 40;
const ADMIN_TOKEN = 'cluster-admin-token-0123456789';
/** The built service (`npm run build`), as `npm start` runs it. */
let main: string;
beforeAll(async () => {
  main = await builtServiceMain();
}, 180_000);

/** One request on a connection of its own, so that node:cluster hands it to the next worker in turn. */
/** `token` null: no key, as a load balancer's probe asks (a key would spend its account's budget). */
function get(path: string, token: string | null = apiKey, method = 'GET'): Promise<{ status: number; body: JsonBody }> {
  return new Promise((resolve, reject) => {
    const headers = token === null ? {} : { authorization: `Bearer ${token}` };
    const req = request(`${service.url}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end();
  });
}

function getWithHeaders(path: string, token: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}${path}`, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

function post(path: string, body: unknown): Promise<{ status: number; body: JsonBody }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${service.url}${path}`,
      { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' }, agent: false },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The node processes below `pid` (node:cluster forks the workers from the primary), oldest first. */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,comm='])
    .toString()
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/));
  const below: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid, command] of rows) {
      if (Number(ppid) !== parent) continue;
      // Only node processes serve.
      if (command === 'node') below.push(Number(child));
      walk(Number(child));
    }
  };
  walk(pid);
  return below;
}

/** The built service (`npm start`'s command) until it exits by itself. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Every key under `pattern` (after the test's prefix). */
async function keysUnder(pattern: string): Promise<string[]> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    return await redis.keys(`${prefix}${pattern}`);
  } finally {
    redis.disconnect();
  }
}

const serviceEnv = {
  WEB_CONCURRENCY: '2',
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: `sqlite:${join(dir, 'cluster.sqlite')}`,
  SANDBOX_STATE_FILE: 'off',
  BOOTSTRAP_API_KEY: apiKey,
  LOG_LEVEL: 'warn',
  API_RATE_LIMIT_PER_MINUTE: String(BUDGET),
  ADMIN_TOKEN,
};

describe('WEB_CONCURRENCY=2 without REDIS_URL', () => {
  it('is refused at start in one line, before any worker or database', async () => {
    const result = await runToExit({ ...serviceEnv, DATABASE_URL: `sqlite:${join(dir, 'refused.sqlite')}` });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^basewatch failed to start: WEB_CONCURRENCY=2 needs REDIS_URL: .*Set REDIS_URL, or WEB_CONCURRENCY=1\./);
    expect(result.stderr.trim().split('\n'), result.stderr).toHaveLength(1);
    expect(result.stdout).not.toMatch(/running at/);
    expect(existsSync(join(dir, 'refused.sqlite'))).toBe(false);
  }, 30_000);
});

/** WEB_CONCURRENCY=2 on SQLite and the built-in sandbox, with Redis under a key prefix of the test's own. */
describe.skipIf(!available)('WEB_CONCURRENCY=2 on SQLite with Redis', () => {
  beforeAll(async () => {
    service = await startWithBanner(process.execPath, [main], { ...serviceEnv, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix });
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    if (service?.child.exitCode === null) service.child.kill('SIGKILL');
    await dropKeys(prefix);
  });

  it('shares the sandbox, the platform’s limits and subscription events between the workers', async () => {
    // The primary (the process started) and its two workers.
    expect(descendants(service.child.pid!)).toHaveLength(2);
    const bases = await get('/airtable/bases');
    const baseId = (bases.body.bases as Array<{ id: string; name: string }>).find((base) => base.name === DEMO_BASES.catalog)!.id;
    const stats = async () => (await get('/sandbox/airtable/_control/stats', DEFAULT_SANDBOX_TOKEN)).body.byBase[baseId] ?? { requests: 0 };
    // The pace is measured where it is kept, at the workers: a loaded machine can stall the sandbox's process and
    // bunch paced arrivals past 5 a second there (a 429, then the platform's 30 s lock-out), so its limit is lifted.
    const lifted = await fetch(`${service.url}/sandbox/airtable/_control/faults`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${DEFAULT_SANDBOX_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rateLimitPerSecond: 1_000 }),
    });
    expect(lifted.status).toBe(200);
    const before = await stats();
    const started = Date.now();
    const reads = await Promise.all(Array.from({ length: 12 }, () => get(`/airtable/bases/${baseId}/tables`)));
    const elapsed = Date.now() - started;
    expect(reads.map((read) => read.status)).toEqual(Array(12).fill(200));
    const after = await stats();
    // One sandbox saw all 12, sent within the base's 5 a second by both workers together: the 11th no sooner than two
    // seconds after the first. Two workers' windows of their own would each send 5 at once and their sixth a second
    // later: all 12 in about one second.
    expect(after.requests - before.requests).toBe(12);
    expect(elapsed).toBeGreaterThanOrEqual(1_900);

    const created = await post('/usage/bases', { baseId });
    expect(created.status).toBe(201);
    const usageBaseId: string = created.body.base.id;
    // Two connections: node:cluster hands them to the two workers in turn.
    const subscriptions = [0, 1].map(() => {
      const client = createClient({
        url: `${service.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${apiKey}` },
        retryAttempts: 0,
      });
      clients.push(client);
      return client.iterate<{ snapshotRecorded: { date: string } }>({
        query: 'subscription($id: ID!) { snapshotRecorded(usageBaseId: $id) { date } }',
        variables: { id: usageBaseId },
      });
    });
    const heard = subscriptions.map((events) => events.next());
    await new Promise((resolve) => setTimeout(resolve, 500));
    const run = await post(`/usage/bases/${usageBaseId}/run`, {});
    expect(run.status).toBe(200);
    const answers = await Promise.all(
      heard.map((next) => Promise.race([next, new Promise<undefined>((resolve) => setTimeout(resolve, 10_000, undefined))])),
    );
    expect(answers.map((answer) => answer?.value?.data?.snapshotRecorded.date)).toEqual([run.body.snapshotDate, run.body.snapshotDate]);
  }, 30_000);

  it('replaces a worker that crashed, and goes on serving', async () => {
    const workers = descendants(service.child.pid!);
    expect(workers).toHaveLength(2);
    process.kill(workers[0]!, 'SIGKILL');
    await until(
      () => descendants(service.child.pid!),
      (pids) => pids.length === 2 && !pids.includes(workers[0]!),
    );
    // The primary stays.
    expect(service.child.exitCode).toBeNull();
    // The summed /metrics asks every worker: it answers once the new one listens for the primary's question, just
    // before it takes the port (and answers 503 there while it starts).
    await until(
      () => get('/metrics', ADMIN_TOKEN).then((res) => res.status),
      (status) => status === 200,
      40_000,
    );
    await until(
      async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++)
          statuses.push(
            await get('/healthz', null).then(
              (res) => res.status,
              () => 0,
            ),
          );
        return statuses;
      },
      (statuses) => statuses.every((status) => status === 200),
      40_000,
    );
  }, 60_000);

  it('spends one request budget per account across the workers', async () => {
    const created = await post('/graphql', { query: 'mutation { createApiKey(input: { name: "budget" }) { key } }' });
    const key: string = created.body.data.createApiKey.key;
    // The account's budget is shared with the key the tests above used: the first answer tells what is left of it.
    const first = await getWithHeaders('/usage/bases', key);
    expect(first.status).toBe(200);
    const left = Number(/\br=(\d+)/.exec(first.headers.ratelimit as string)![1]);
    expect(left).toBeLessThan(BUDGET - 1);
    const statuses: number[] = [];
    for (let i = 0; i < left + 2; i++) statuses.push((await get('/usage/bases', key)).status);
    // Two separate budgets would have let them all through.
    expect(statuses).toEqual([...Array(left).fill(200), 429, 429]);
    // Kept in Redis, under the deployment's prefix.
    expect(await keysUnder('budget:*')).not.toEqual([]);
  });

  it('answers /metrics for the whole cluster: every worker’s requests summed', async () => {
    const healthChecks = async () => {
      const text = (await get('/metrics', ADMIN_TOKEN)).body as string;
      const lines = text
        .split('\n')
        .filter((line) => line.startsWith('basewatch_http_request_duration_seconds_count') && line.includes('route="/healthz"'));
      return lines.reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
    };
    const before = await healthChecks();
    for (let i = 0; i < 6; i++) expect((await get('/healthz', null)).status).toBe(200);
    // Handed to both workers in turn: one worker's own count would be 3.
    expect((await healthChecks()) - before).toBe(6);
  });

  it('drains every worker and the primary on SIGTERM, and exits 0', async () => {
    const pids = descendants(service.child.pid!);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    const alive = pids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  }, 60_000);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));
