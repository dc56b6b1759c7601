import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_URL, admin } from '../support/postgres.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from './support/receiver.js';
import { verifyStandardWebhook } from './support/standard-webhooks.js';
import { allDeliveries, change, createWebhook, deliveryEnv, demoTable, eventually, feed, recordId } from './support/webhook-support.js';

/** The delivery outbox's SQL on PostgreSQL (this machine's usual port; a database of the test's own). */
const database = `basewatch_webhooks_${randomBytes(4).toString('hex')}`;

async function connectionsLeft(): Promise<number> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database]);
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}

const available = await admin('SELECT 1');

describe.skipIf(!available)('webhook deliveries on PostgreSQL', () => {
  let app: TestApp;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    await admin(`CREATE DATABASE ${database}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    app = await startTestApp(deliveryEnv(receiver.port, { DATABASE_URL: url.toString() }));
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
    // The job store's pool closes its connections a moment after the app has stopped; FORCE would kill them.
    await eventually(connectionsLeft, (n) => n === 0, 5_000);
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it('delivers, retries, orders and coalesces as on SQLite', async () => {
    const table = await demoTable(app.http);
    const f = table.fieldIds[0]!;
    const { webhook, secret } = await createWebhook(app.http, {
      baseId: table.baseId,
      event: 'record_update',
      tableId: table.tableId,
      webhookUrl: receiver.url('/pg'),
      coalesceUpdates: true,
    });
    receiver.answer = (request) => (request.path === '/pg' && receiver.at('/pg').length === 1 ? { status: 503 } : { status: 200 });
    const [a, b] = [recordId(), recordId()];
    await feed(app, app.accountId, table.baseId, [
      change('record_update', { tableId: table.tableId, recordId: a, fieldIds: [f], before: { [f]: 0 }, after: { [f]: 1 } }),
      change('record_update', { tableId: table.tableId, recordId: b, fieldIds: [f], before: { [f]: 10 }, after: { [f]: 11 } }),
    ]);
    await feed(app, app.accountId, table.baseId, [
      change('record_update', { tableId: table.tableId, recordId: a, fieldIds: [f], before: { [f]: 1 }, after: { [f]: 2 } }),
    ]);

    const log = await eventually(
      () => allDeliveries(app.http, webhook.webhookId),
      (d) => d.length === 2 && d.every((x) => x.status === 'succeeded'),
    );
    expect(log.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    const merged = log.find((d) => d.payload.data.recordId === a)!;
    expect(merged.payload.data).toMatchObject({ changeCount: 2, previous: { [f]: 0 }, current: { [f]: 2 } });
    expect(log.flatMap((d) => d.attempts.map((x) => x.statusCode)).sort()).toEqual([200, 200, 503]);
    const requests = receiver.at('/pg');
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => verifyStandardWebhook(secret, r.headers, r.body))).toBe(true);
  });
});
