import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { generateApiKey } from '../../src/services/credentials/api-key.js';
import { allChanges } from '../audit/audit-support.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { createHttp, type Http } from '../support/http.js';
import { ADMIN_URL, admin, query } from '../support/postgres.js';
import { until } from '../support/eventually.js';
import { builtSandboxMain, builtServiceMain } from '../support/built-service.js';
import { isWithin, processOfLocalPort, startWithBanner, type ServiceProcess } from '../support/processes.js';
import { dropKeys, redisAvailable, TEST_REDIS_URL, testKeyPrefix } from '../support/redis.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { TEST_SECRET_KEY } from '../support/test-app.js';
import { Receiver } from '../webhooks/support/receiver.js';
import { deliveryEnv } from '../webhooks/support/webhook-support.js';
import type { JsonBody } from '../support/json-body.js';

const available = (await admin('SELECT 1')) && (await redisAvailable());
/** A replica is the built service under plain node (`npm run build`, then `npm start`'s command), set in beforeAll. */
let replicaMain: string;
const startReplica = () => startWithBanner(process.execPath, [replicaMain], replicaEnv);
const SANDBOX_TOKEN = 'replicas-sandbox-token';
const REPLICAS = 3;

const database = `basewatch_test_${randomBytes(4).toString('hex')}`;
const prefix = testKeyPrefix('replicas');
const apiKey = generateApiKey();
let sandbox: ServiceProcess;
let receiver: Receiver;
let databaseUrl: string;
let replicaEnv: Record<string, string>;
/** The monitoring config the subscription test made (on the marketing base). */
let marketingConfigId: string;
const replicas: ServiceProcess[] = [];
const http: Http[] = [];
const clients: Client[] = [];

/** The standalone sandbox's control API. */
/**
 * For tests where only the replicas' own traffic is under test: lifts any lock-out an earlier test left on a base (a
 * busy machine can bunch arrivals past 5 a second) and lets the test's own calls through without limit.
 */
async function liftBaseLimit(): Promise<void> {
  await control('DELETE', 'faults');
  await control('PUT', 'faults', { rateLimitPerSecond: 1_000 });
}

async function control<T = JsonBody>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sandbox.url}/_control/${path}`, {
    method,
    headers: { authorization: `Bearer ${SANDBOX_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return (await res.json()) as T;
}

const stats = () =>
  control<{ requests: number; rateLimited: number; byBase: Record<string, { requests: number; rateLimited: number }> }>('GET', 'stats');

/**
 * Three replicas as a deployment runs them (the built service, each its own process) on one PostgreSQL database and
 * one Redis prefix, against one standalone sandbox (`npm run sandbox`'s script, built) in real-upstream mode.
 */
describe.skipIf(!available)('three replicas on PostgreSQL and Redis', () => {
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    receiver = await new Receiver().start();
    databaseUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString();
    replicaMain = await builtServiceMain();
    sandbox = await startWithBanner(process.execPath, [await builtSandboxMain()], { PORT: '0', SANDBOX_TOKEN, SANDBOX_STATE_FILE: 'off' });
    replicaEnv = {
      ...deliveryEnv(receiver.port),
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
      SECRET_KEY: TEST_SECRET_KEY,
      AIRTABLE_API_URL: sandbox.url,
      AIRTABLE_TOKEN: SANDBOX_TOKEN,
      BOOTSTRAP_API_KEY: apiKey,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SANDBOX_STATE_FILE: 'off',
      // Jobs run on every replica, quickly: ingestion by polling (no PUBLIC_URL for the upstream's pings).
      SCHEDULER_RUN_JOBS: 'true',
      JOBS_PROCESS_EVERY_MS: '100',
      AUDIT_POLL_INTERVAL_SECONDS: '1',
      AUDIT_WRITE_RETRY_BASE_MS: '200',
      AUDIT_WRITE_MAX_RETRY_MS: '1000',
      UPSTREAM_RETRY_BASE_DELAY_MS: '50',
      USAGE_SPREAD_SECONDS: '0',
      // A job whose replica was killed runs again elsewhere after this long (the SIGKILL test waits for it).
      JOBS_LOCK_LIFETIME_MS: '15000',
      // Out of rotation before closing for longer than the balancer below needs to see it: it asks /readyz every
      // 100 ms, but on a loaded machine an answer took more than the 500 ms this was (a request then met the 503 of a
      // replica shutting down).
      SHUTDOWN_DRAIN_MS: '2000',
      // The rolling restart's request stream is not about budgets.
      API_RATE_LIMIT_PER_MINUTE: '1000000',
    };
    // The first migrates the database; the others start together once it is ready.
    replicas.push(await startReplica());
    replicas.push(...(await Promise.all(Array.from({ length: REPLICAS - 1 }, () => startReplica()))));
    http.push(...replicas.map((replica) => createHttp(replica.url, apiKey)));
  }, 240_000);

  afterAll(async () => {
    for (const client of clients) await client.dispose();
    for (const process of [...replicas, sandbox]) process?.child.kill('SIGTERM');
    await Promise.all([...replicas, sandbox].map((process) => process?.exited));
    await receiver?.stop();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await dropKeys(prefix);
  }, 60_000);

  it('counts a base once when all three are asked at the same time: one runs, the others answer 409', async () => {
    const baseId = await upstreamBaseId(http[0], DEMO_BASES.catalog);
    const tracked = await http[0]('POST', '/usage/bases', { body: { baseId } });
    expect(tracked.status).toBe(201);
    // Slow answers keep the first count running while the others ask.
    await control('PUT', 'faults', { latencyMs: 300 });
    try {
      const runs = await Promise.all(http.map((call) => call('POST', `/usage/bases/${tracked.body.base.id}/run`)));
      expect(runs.map((run) => run.status).sort()).toEqual([200, 409, 409]);
    } finally {
      await control('PUT', 'faults', { latencyMs: 0 });
    }
  });

  it('keeps to one base’s 5 requests a second together: no 429 while all three read it at once', async () => {
    const baseId = await upstreamBaseId(http[1], DEMO_BASES.marketing);
    const before = (await stats()).byBase[baseId] ?? { requests: 0, rateLimited: 0 };
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 18 }, (_, i) => http[i % REPLICAS]('GET', `/airtable/bases/${baseId}/tables`)));
    const seconds = (Date.now() - started) / 1000;
    expect(answers.map((answer) => answer.status)).toEqual(Array(18).fill(200));
    const after = (await stats()).byBase[baseId]!;
    expect(after.requests - before.requests).toBe(18);
    expect(after.rateLimited - before.rateLimited).toBe(0);
    // Three separate budgets would have taken one second; one shared budget takes more than three.
    expect(seconds).toBeGreaterThan(3);
  });

  it('tells a change ingested by one replica to the subscribers of all three, and logs it once', async () => {
    // The test's own calls to the base share its budget with the replicas': only theirs is under test here.
    await liftBaseLimit();
    const baseId = await upstreamBaseId(http[0], DEMO_BASES.marketing);
    const monitoringBaseId = await upstreamBaseId(http[0], DEMO_BASES.changeLog);
    const created = await http[0]('POST', '/monitoring-config', { body: { baseId, monitoringBaseId } });
    expect(created.status).toBe(201);
    const configId: string = created.body.config.id;
    marketingConfigId = configId;
    const api = sandboxApi('', SANDBOX_TOKEN, sandbox.url);
    const [table] = await api.schema(baseId);
    const primary = table!.fields.find((field) => field.id === table!.primaryFieldId)!;

    const subscriptions = replicas.map((replica) => {
      const client = createClient({
        url: `${replica.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${apiKey}` },
        retryAttempts: 0,
      });
      clients.push(client);
      return client.iterate<{ changeLogged: { recordId: string | null } }>({
        query: 'subscription($id: ID!) { changeLogged(monitoringConfigId: $id) { recordId } }',
        variables: { id: configId },
      });
    });
    // Let the subscriptions start, then make one change upstream.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const made = await api.createRecords(baseId, table!.id, [{ [primary.name]: 'Heard everywhere' }]);
    const recordId = made.records[0].id as string;

    const heard = await Promise.all(
      subscriptions.map(async (events) => {
        for (;;) {
          const next = await Promise.race([events.next(), new Promise<undefined>((resolve) => setTimeout(resolve, 20_000, undefined))]);
          if (!next || next.done) return false;
          if (next.value.data?.changeLogged.recordId === recordId) return true;
        }
      }),
    );
    expect(heard).toEqual([true, true, true]);
    const logged = (await allChanges(http[2], configId)).filter((change) => change.recordId === recordId);
    expect(logged).toHaveLength(1);
  }, 60_000);

  it('runs a day’s scheduled count once per base, whichever replicas poll the jobs', async () => {
    await control('PUT', 'faults', { rateLimitPerSecond: 5 });
    const baseId = await upstreamBaseId(http[0], DEMO_BASES.catalog);
    const listed = await http[1]('GET', '/usage/bases');
    const base = (listed.body.bases as Array<{ id: string; baseId: string }>).find((tracked) => tracked.baseId === baseId)!;
    const before = (await stats()).byBase[baseId]!.requests;
    // Due now: every replica's scheduler sees the job at its next poll.
    await sql(`UPDATE agenda_jobs SET next_run_at = now() WHERE name = 'usage.count' AND data->>'usageBaseId' = $1`, [base.id]);
    const runs = await until(
      // With the error, so that a failed count says why.
      () => sql<{ status: string; error: string | null }>('SELECT status, error FROM usage_run WHERE usage_base_id = $1', [base.id]),
      (rows) => rows.some((row) => row.status === 'ok'),
    );
    // Time for a second count to start, were one going to.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await sql('SELECT status, error FROM usage_run WHERE usage_base_id = $1', [base.id])).toEqual(runs);
    expect(runs).toHaveLength(1);
    // One count of the catalog: its schema, then 3 + 1 + 2 pages of records.
    expect((await stats()).byBase[baseId]!.requests - before).toBe(7);
  }, 30_000);

  it('sends every webhook delivery once, in the order of the record’s changes', async () => {
    await liftBaseLimit();
    const baseId = await upstreamBaseId(http[0], DEMO_BASES.catalog);
    const api = sandboxApi('', SANDBOX_TOKEN, sandbox.url);
    const [table] = await api.schema(baseId);
    const primary = table!.fields.find((field) => field.id === table!.primaryFieldId)!;
    const created = await http[1]('POST', '/webhooks', {
      body: {
        baseId,
        event: 'record_update',
        tableId: table!.id,
        columnId: primary.id,
        webhookUrl: receiver.url('/replicas'),
        coalesceUpdates: false,
      },
    });
    expect(created.status, created.text).toBe(201);
    const { records } = await api.listRecords(baseId, table!.id, '?pageSize=1');
    const recordId = (records[0] as { id: string }).id;
    const values = ['first', 'second', 'third', 'fourth', 'fifth'];
    for (const value of values) {
      await api.updateRecords(baseId, table!.id, [{ id: recordId, fields: { [primary.name]: value } }]);
      // Apart enough that each is a change of its own, not one coalesced update.
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const delivered = await receiver.waitFor('/replicas', values.length, 30_000);
    // Time for a duplicate to arrive, were one going to.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const all = receiver.received.filter((request) => request.path === '/replicas');
    expect(all).toHaveLength(values.length);
    expect(new Set(all.map((request) => request.headers['webhook-id'])).size).toBe(values.length);
    expect(delivered.map((request) => (request.json.data.current as Record<string, unknown>)[primary.id])).toEqual(values);
  }, 60_000);

  it('loses nothing and logs nothing twice when the replica sending a delivery is killed (SIGKILL) amid changes', async () => {
    await liftBaseLimit();
    const baseId = await upstreamBaseId(http[2], DEMO_BASES.marketing);
    const api = sandboxApi('', SANDBOX_TOKEN, sandbox.url);
    const [table] = await api.schema(baseId);
    const primary = table!.fields.find((field) => field.id === table!.primaryFieldId)!;
    const created = await http[2]('POST', '/webhooks', {
      body: {
        baseId,
        event: 'record_update',
        tableId: table!.id,
        columnId: primary.id,
        webhookUrl: receiver.url('/killed'),
        coalesceUpdates: false,
      },
    });
    expect(created.status, created.text).toBe(201);
    // A slow receiver: deliveries are in flight when the replicas die.
    receiver.answer = (request) => (request.path === '/killed' ? { status: 200, delayMs: 400 } : { status: 200 });
    const { records } = await api.listRecords(baseId, table!.id, '?pageSize=1');
    const recordId = (records[0] as { id: string }).id;
    const values = ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'];
    let killed = -1;
    for (const [i, value] of values.entries()) {
      await api.updateRecords(baseId, table!.id, [{ id: recordId, fields: { [primary.name]: value } }]);
      if (i === 1) {
        // The replica whose delivery the slow receiver is holding dies with it in flight; the other two carry on.
        const [first] = await receiver.waitFor('/killed', 1, 20_000);
        const sender = processOfLocalPort(first!.remotePort);
        killed = replicas.findIndex((replica) => sender !== undefined && isWithin(sender, replica.child.pid!));
        expect(killed, 'the sending replica was not found').toBeGreaterThanOrEqual(0);
        process.kill(sender!, 'SIGKILL');
        await replicas[killed]!.exited;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // A delivery the dead held is sent again once its lease ran out (the send time-out + 30 s); an ingestion it was
    // running (the watch's one job) goes on once the job's lock lifetime (JOBS_LOCK_LIFETIME_MS) has passed.
    await until(
      async () =>
        new Set(receiver.received.filter((request) => request.path === '/killed').map((request) => request.headers['webhook-id'])).size,
      (distinct) => distinct >= values.length,
      120_000,
    );
    const deliveries = receiver.received.filter((request) => request.path === '/killed');
    const firstOfEach = new Map<unknown, (typeof deliveries)[number]>();
    for (const delivery of deliveries)
      if (!firstOfEach.has(delivery.headers['webhook-id'])) firstOfEach.set(delivery.headers['webhook-id'], delivery);
    expect([...firstOfEach.values()].map((request) => (request.json.data.current as Record<string, unknown>)[primary.id])).toEqual(values);
    // At least once: the delivery in flight when its sender died comes again (its lease ran out), with the same id
    // and body; nothing else does.
    expect(deliveries.length - firstOfEach.size).toBe(1);
    for (const delivery of deliveries) expect(delivery.body).toBe(firstOfEach.get(delivery.headers['webhook-id'])!.body);
    // The audit log has each change once.
    const logged = await until(
      async () =>
        (await allChanges(http[(killed + 1) % REPLICAS]!, marketingConfigId)).filter(
          (change) => change.recordId === recordId && change.eventType === 'record_update',
        ),
      (changes) => changes.length >= values.length,
    );
    expect(logged).toHaveLength(values.length);
    receiver.answer = () => ({ status: 200 });
    replicas[killed] = await startReplica();
    http[killed] = createHttp(replicas[killed]!.url, apiKey);
  }, 200_000);

  it('loses no request while each replica in turn is stopped (SIGTERM) and started again behind a balancer', async () => {
    const balancer = new TestBalancer(() => replicas.map((replica) => replica.url));
    await balancer.check();
    const outcomes: Array<number | string> = [];
    let streaming = true;
    const stream = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (streaming) {
          outcomes.push(
            await balancer.get('/usage/bases', { authorization: `Bearer ${apiKey}` }).then(
              (res) => res.status,
              (error: Error) => error.message,
            ),
          );
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }),
    );
    try {
      for (let i = 0; i < REPLICAS; i++) {
        replicas[i]!.child.kill('SIGTERM');
        expect(await replicas[i]!.exited).toBe(0);
        replicas[i] = await startReplica();
        http[i] = createHttp(replicas[i]!.url, apiKey);
        await until(
          () => send(replicas[i]!.url, '/readyz', {}),
          (res) => res.status === 200,
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    } finally {
      streaming = false;
      await stream;
      balancer.stop();
    }
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.filter((outcome) => outcome !== 200)).toEqual([]);
  }, 90_000);
});

/**
 * A load balancer as a test needs one: round robin over the replicas whose /readyz answered 200 at the last check
 * (every 100 ms), kept-alive connections to each, as balancers keep them, and a request that never reached a replica
 * (see notSent) tried on the next one.
 */
class TestBalancer {
  private ready = new Set<string>();
  private next = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly upstreams: () => string[]) {
    this.timer = setInterval(() => void this.check(), 100);
  }

  async check(): Promise<void> {
    const ready = new Set<string>();
    await Promise.all(
      this.upstreams().map(async (url) => {
        if ((await send(url, '/readyz', {}).catch(() => ({ status: 0 }))).status === 200) ready.add(url);
      }),
    );
    this.ready = ready;
  }

  async get(path: string, headers: Record<string, string>): Promise<{ status: number }> {
    for (let tries = 0; ; tries++) {
      const choices = [...this.ready];
      if (choices.length === 0) throw new Error('no replica in rotation');
      const url = choices[this.next++ % choices.length]!;
      try {
        return await send(url, path, headers, agentFor(url));
      } catch (error) {
        if (!notSent(error) || tries > 5) throw error;
      }
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

const agents = new Map<string, Agent>();
const agentFor = (url: string) => agents.get(url) ?? agents.set(url, new Agent({ keepAlive: true })).get(url)!;

function send(url: string, path: string, headers: Record<string, string>, agent: Agent | false = false): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', (error: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
      error.reusedSocket = req.reusedSocket;
      reject(error);
    });
    req.end();
  });
}

/**
 * A request that never reached a replica, which a balancer sends to the next one: its connection was refused, or a
 * kept-alive connection was closed as idle by the replica just as the request went out on it (the race that Node's
 * documentation answers with exactly this retry: `reusedSocket` and ECONNRESET).
 */
function notSent(error: unknown): boolean {
  const { code, reusedSocket } = error as NodeJS.ErrnoException & { reusedSocket?: boolean };
  return code === 'ECONNREFUSED' || (code === 'ECONNRESET' && reusedSocket === true);
}

const sql = <T = Record<string, unknown>>(text: string, values: unknown[] = []) => query<T>(databaseUrl, text, values);
