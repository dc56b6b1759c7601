import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from './support/receiver.js';
import {
  allDeliveries,
  change,
  createWebhook,
  deliveryEnv,
  demoTable,
  eventually,
  feed,
  recordId,
  type DemoTable,
} from './support/webhook-support.js';

let app: TestApp;
let receiver: Receiver;
let table: DemoTable;

beforeAll(async () => {
  receiver = await new Receiver().start();
  // Deliveries that keep failing for 500 ms deactivate their webhook (5 days by default).
  app = await startTestApp(
    deliveryEnv(receiver.port, {
      WEBHOOK_DISABLE_AFTER: '500ms',
      WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms',
    }),
  );
  table = await demoTable(app.http);
});
afterAll(async () => {
  await app.close();
  await receiver.stop();
});

const activeIds = async () => ((await app.http('GET', '/webhooks')).body.webhooks as Array<{ webhookId: string }>).map((w) => w.webhookId);

describe('deactivation by the receiver', () => {
  it('deactivates a webhook answered with 410 Gone: it leaves GET /webhooks and its other deliveries are dropped', async () => {
    receiver.answer = (request) => (request.path === '/gone' ? { status: 410, delayMs: 100 } : { status: 200 });
    const { webhook } = await createWebhook(app.http, {
      baseId: table.baseId,
      event: 'record_create',
      tableId: table.tableId,
      webhookUrl: receiver.url('/gone'),
    });
    const record = recordId();
    // Two changes of one record: the second waits behind the first, which gets the 410.
    await feed(app, app.accountId, table.baseId, [
      change('record_create', { tableId: table.tableId, recordId: record }),
      change('record_create', { tableId: table.tableId, recordId: record }),
    ]);
    await eventually(activeIds, (ids) => !ids.includes(webhook.webhookId));
    expect(await activeIds()).not.toContain(webhook.webhookId);
    const log = await eventually(
      () => allDeliveries(app.http, webhook.webhookId),
      (d) => d.every((x) => x.status === 'failed'),
    );
    expect(log.map((d) => d.status)).toEqual(['failed', 'failed']);
    expect(log[1]!.attempts.map((a) => a.statusCode)).toEqual([410]);
    expect(log[0]!.attempts).toEqual([]);
    expect(receiver.at('/gone')).toHaveLength(1);
    expect((await app.http('DELETE', `/webhooks/${webhook.webhookId}`)).status).toBe(404);
  });

  it('deactivates a webhook whose deliveries have all failed for the configured span, and sends nothing more', async () => {
    receiver.answer = (request) => (request.path === '/failing' ? { status: 500 } : { status: 200 });
    const { webhook } = await createWebhook(app.http, {
      baseId: table.baseId,
      event: 'record_create',
      tableId: table.tableId,
      webhookUrl: receiver.url('/failing'),
    });
    await feed(app, app.accountId, table.baseId, [change('record_create', { tableId: table.tableId, recordId: recordId() })]);
    await eventually(activeIds, (ids) => !ids.includes(webhook.webhookId));
    expect(await activeIds()).not.toContain(webhook.webhookId);
    const [delivery] = await allDeliveries(app.http, webhook.webhookId);
    expect(delivery!.status).toBe('failed');
    // Failing since the first attempt, for more than 500 ms with 100 ms between attempts: deactivated before the 9th.
    expect(delivery!.attempts.length).toBeGreaterThanOrEqual(2);
    expect(delivery!.attempts.length).toBeLessThan(9);
    const sent = receiver.at('/failing').length;
    await feed(app, app.accountId, table.baseId, [change('record_create', { tableId: table.tableId, recordId: recordId() })]);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/failing')).toHaveLength(sent);
  });

  it('keeps a webhook whose failures end in a success', async () => {
    let calls = 0;
    receiver.answer = (request) => (request.path === '/recovers' ? { status: ++calls <= 2 ? 503 : 200 } : { status: 200 });
    const { webhook } = await createWebhook(app.http, {
      baseId: table.baseId,
      event: 'record_create',
      tableId: table.tableId,
      webhookUrl: receiver.url('/recovers'),
    });
    await feed(app, app.accountId, table.baseId, [change('record_create', { tableId: table.tableId, recordId: recordId() })]);
    const [delivery] = await eventually(
      () => allDeliveries(app.http, webhook.webhookId),
      (d) => d[0]?.status === 'succeeded',
    );
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([503, 503, 200]);
    expect(await activeIds()).toContain(webhook.webhookId);
  });
});
