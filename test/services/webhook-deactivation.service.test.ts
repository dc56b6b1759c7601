import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';
import { Receiver } from '../webhooks/support/receiver.js';
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
} from './webhook-flow.js';

/** Deactivation of a webhook by what its receiver answers (the dispatcher, WebhookService), without our HTTP API. */

let t: TestServices;
let receiver: Receiver;
let table: DemoTable;

beforeAll(async () => {
  receiver = await new Receiver().start();
  // Deliveries that keep failing for 500 ms deactivate their webhook (5 days by default).
  t = await startTestServices(
    deliveryEnv(receiver.port, {
      WEBHOOK_DISABLE_AFTER: '500ms',
      WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,100ms,100ms,100ms,100ms,100ms',
    }),
  );
  table = demoTable(t);
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

const activeIds = async () => (await t.services.webhooks.list(t.accountId)).map((w) => w.id);

describe('deactivation by the receiver', () => {
  it('deactivates a webhook answered with 410 Gone: it leaves the list and its other deliveries are dropped', async () => {
    receiver.answer = (request) => (request.path === '/gone' ? { status: 410, delayMs: 100 } : { status: 200 });
    const { webhook } = await createWebhook(t, t.accountId, {
      baseId: table.baseId,
      event: 'record_create',
      tableId: table.tableId,
      webhookUrl: receiver.url('/gone'),
    });
    const record = recordId();
    // Two changes of one record: the second waits behind the first, which gets the 410.
    await feed(t, t.accountId, table.baseId, [
      change('record_create', { tableId: table.tableId, recordId: record }),
      change('record_create', { tableId: table.tableId, recordId: record }),
    ]);
    await eventually(activeIds, (ids) => !ids.includes(webhook.id));
    expect(await activeIds()).not.toContain(webhook.id);
    const log = await eventually(
      () => allDeliveries(t, t.accountId, webhook.id),
      (d) => d.every((x) => x.status === 'failed'),
    );
    expect(log.map((d) => d.status)).toEqual(['failed', 'failed']);
    expect(log[1]!.attempts.map((a) => a.statusCode)).toEqual([410]);
    expect(log[0]!.attempts).toEqual([]);
    expect(receiver.at('/gone')).toHaveLength(1);
    expect(await refusal(() => t.services.webhooks.remove(t.accountId, webhook.id))).toBe('not_found');
  });

  it('deactivates a webhook whose deliveries have all failed for the configured span, and sends nothing more', async () => {
    receiver.answer = (request) => (request.path === '/failing' ? { status: 500 } : { status: 200 });
    const { webhook } = await createWebhook(t, t.accountId, {
      baseId: table.baseId,
      event: 'record_create',
      tableId: table.tableId,
      webhookUrl: receiver.url('/failing'),
    });
    await feed(t, t.accountId, table.baseId, [change('record_create', { tableId: table.tableId, recordId: recordId() })]);
    await eventually(activeIds, (ids) => !ids.includes(webhook.id));
    expect(await activeIds()).not.toContain(webhook.id);
    const [delivery] = await allDeliveries(t, t.accountId, webhook.id);
    expect(delivery!.status).toBe('failed');
    // Failing since the first attempt, for more than 500 ms with 100 ms between attempts: deactivated before the 9th.
    expect(delivery!.attempts.length).toBeGreaterThanOrEqual(2);
    expect(delivery!.attempts.length).toBeLessThan(9);
    const sent = receiver.at('/failing').length;
    await feed(t, t.accountId, table.baseId, [change('record_create', { tableId: table.tableId, recordId: recordId() })]);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.at('/failing')).toHaveLength(sent);
  });

  it('keeps a webhook whose failures end in a success', async () => {
    let calls = 0;
    receiver.answer = (request) => (request.path === '/recovers' ? { status: ++calls <= 2 ? 503 : 200 } : { status: 200 });
    const { webhook } = await createWebhook(t, t.accountId, {
      baseId: table.baseId,
      event: 'record_create',
      tableId: table.tableId,
      webhookUrl: receiver.url('/recovers'),
    });
    await feed(t, t.accountId, table.baseId, [change('record_create', { tableId: table.tableId, recordId: recordId() })]);
    const [delivery] = await eventually(
      () => allDeliveries(t, t.accountId, webhook.id),
      (d) => d[0]?.status === 'succeeded',
    );
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([503, 503, 200]);
    expect(await activeIds()).toContain(webhook.id);
  });
});
