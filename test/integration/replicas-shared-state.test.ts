import { randomBytes } from 'node:crypto';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startServer } from '../../src/server.js';
import { FAILURES_PER_EMAIL_AND_IP } from '../../src/auth/sign-in-limits.js';
import { createBrowser, PASSWORD, uniqueEmail } from '../auth/browser.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { createHttp } from '../support/http.js';
import { ADMIN_URL, admin } from '../support/postgres.js';
import { dropKeys, redisAvailable, TEST_REDIS_URL, testKeyPrefix } from '../support/redis.js';
import { startTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.js';

const available = (await admin('SELECT 1')) && (await redisAvailable());
const database = `basewatch_test_${randomBytes(4).toString('hex')}`;
const databaseUrl = () => Object.assign(new URL(ADMIN_URL), { pathname: `/${database}` }).toString();

let prefix: string;
/** Two replicas on one PostgreSQL database and one Redis key prefix. */
let a: TestApp;
let b: TestApp;
const clients: Client[] = [];

describe.skipIf(!available)('replicas on PostgreSQL share their state through Redis', () => {
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    prefix = testKeyPrefix('replicas');
    const env = { DATABASE_URL: databaseUrl(), REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix, API_RATE_LIMIT_PER_MINUTE: '8' };
    // One after the other: the first runs the migrations.
    a = await startTestApp(env);
    b = await startTestApp(env);
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await a?.close();
    await b?.close();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await dropKeys(prefix);
  });

  it('spends one request budget per key across replicas', async () => {
    const account = await a.newAccount('budget');
    const onA = createHttp(a.url, account.apiKey);
    const onB = createHttp(b.url, account.apiKey);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await onA('GET', '/usage/bases')).status);
      statuses.push((await onB('GET', '/usage/bases')).status);
    }
    // 8 a minute in all: the 9th and 10th are refused, whichever replica they reach.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    const refused = await onB('GET', '/usage/bases');
    expect(refused.body).toMatchObject({ code: 'rate_limited' });
  });

  it('delivers to a subscriber on one replica what another recorded', async () => {
    const account = await a.newAccount('events');
    const baseId = (await trackBase(createHttp(a.url, account.apiKey), DEMO_BASES.catalog)).id;
    const client = createClient({
      url: `${a.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${account.apiKey}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const events = client.iterate({
      query: 'subscription($id: ID!) { snapshotRecorded(usageBaseId: $id) { date } }',
      variables: { id: baseId },
    });
    const first = events.next();
    // The subscription starts asynchronously: replica B records days until one arrives on A.
    let heard: IteratorResult<unknown> | undefined;
    for (let day = 1; !heard && day < 100; day++) {
      await b.running.services.snapshots.record(baseId, `2001-01-${String(day).padStart(2, '0')}`, [], new Date());
      heard = await Promise.race([first, new Promise<undefined>((resolve) => setTimeout(resolve, 50, undefined))]);
    }
    expect(heard?.value).toMatchObject({ data: { snapshotRecorded: { date: expect.stringMatching(/^2001-01-\d\d$/) } } });
    await events.return?.();
  });

  it('counts failed sign-ins of one e-mail across replicas', async () => {
    const email = uniqueEmail();
    expect((await createBrowser(a.url).request('POST', '/auth/sign-up', { body: { email, password: PASSWORD } })).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < FAILURES_PER_EMAIL_AND_IP + 1; i++) {
      const replica = i % 2 === 0 ? a : b;
      statuses.push(
        (await createBrowser(replica.url).request('POST', '/auth/sign-in', { body: { email, password: `wrong ${i}` } })).status,
      );
    }
    // Five failures in all, whichever replica saw them: the sixth attempt is refused.
    expect(statuses).toEqual([...Array(FAILURES_PER_EMAIL_AND_IP).fill(401), 429]);
  });

  it('is ready while the database and Redis answer', async () => {
    expect((await a.http('GET', '/readyz')).status).toBe(200);
  });
});

describe.skipIf(!(await admin('SELECT 1')))('a second process on PostgreSQL without Redis', () => {
  const solo = `basewatch_test_${randomBytes(4).toString('hex')}`;
  const url = () => Object.assign(new URL(ADMIN_URL), { pathname: `/${solo}` }).toString();
  let first: TestApp | undefined;
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${solo}`);
    first = await startTestApp({ DATABASE_URL: url() });
  }, 60_000);
  afterAll(async () => {
    await first?.close();
    await admin(`DROP DATABASE IF EXISTS ${solo} WITH (FORCE)`);
  });

  it('is refused with a message that says to set REDIS_URL', async () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: url(),
      SECRET_KEY: TEST_SECRET_KEY,
      LOG_LEVEL: 'silent',
      SCHEDULER_RUN_JOBS: 'false',
      SANDBOX_STATE_FILE: 'off',
    });
    await expect(startServer(config, createLogger('silent'))).rejects.toThrow(
      /already runs on this PostgreSQL database without Redis.*REDIS_URL/s,
    );
  });
});
