import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from './support/receiver.js';
import { verifyStandardWebhook } from './support/standard-webhooks.js';
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

/**
 * A webhook's delivery log over HTTP (GET …/deliveries, POST …/retry): status, shape, one 400, 404s; and one delivery
 * sent by the whole app. The delivery rules (signatures, retries, order, coalescing, the log's paging):
 * test/services/webhook-delivery.service.test.ts.
 */

let app: TestApp;
let receiver: Receiver;
let table: DemoTable;

beforeAll(async () => {
  receiver = await new Receiver().start();
  // The first attempt of each delivery fails for good (400): the retry route has something to send again.
  receiver.answer = (request) => ({ status: receiver.at(request.path).indexOf(request) === 0 ? 400 : 200 });
  app = await startTestApp(deliveryEnv(receiver.port));
  table = await demoTable(app.http);
});
afterAll(async () => {
  await app.close();
  await receiver.stop();
});

describe('GET /webhooks/{webhookId}/deliveries and POST …/deliveries/{deliveryId}/retry', () => {
  it('answers the log in the documented shape, pages it, retries a delivery, and refuses bad input', async () => {
    const { http } = app;
    const { webhook, secret } = await createWebhook(http, {
      baseId: table.baseId,
      event: 'record_create',
      tableId: table.tableId,
      webhookUrl: receiver.url('/log'),
    });
    const records = [recordId(), recordId()];
    await feed(
      app,
      app.accountId,
      table.baseId,
      records.map((r) => change('record_create', { tableId: table.tableId, recordId: r })),
    );
    const [request] = await receiver.waitFor('/log', 1);
    expect(verifyStandardWebhook(secret, request!.headers, request!.body)).toBe(true);
    await eventually(
      () => allDeliveries(http, webhook.webhookId),
      (d) => d.length === 2 && d.every((x) => x.status !== 'pending'),
    );

    const first = await http('GET', `/webhooks/${webhook.webhookId}/deliveries?limit=1`);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['deliveries', 'nextCursor']);
    expect(first.body.deliveries).toHaveLength(1);
    const [attempt] = first.body.deliveries[0].attempts;
    expect(attempt).toEqual({
      attemptedAt: expect.stringMatching(/Z$/),
      statusCode: expect.any(Number),
      durationMs: expect.any(Number),
      error: attempt.error,
    });
    const second = await http('GET', `/webhooks/${webhook.webhookId}/deliveries?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(second.body.nextCursor).toBeUndefined();

    const failed = [...first.body.deliveries, ...second.body.deliveries].find((d: { status: string }) => d.status === 'failed');
    expect(failed).toBeDefined();
    const retried = await http('POST', `/webhooks/${webhook.webhookId}/deliveries/${failed.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.delivery).toMatchObject({ id: failed.id, status: 'pending', nextAttemptAt: expect.stringMatching(/Z$/) });
    await eventually(
      () => allDeliveries(http, webhook.webhookId),
      (d) => d.every((x) => x.status === 'succeeded'),
    );

    const forged = await http('GET', `/webhooks/${webhook.webhookId}/deliveries?cursor=forged`);
    expect(forged.status).toBe(400);
    expect(forged.body).toEqual({ message: expect.any(String), code: 'invalid_request' });
    const unknown = await http('POST', `/webhooks/${webhook.webhookId}/deliveries/00000000-0000-4000-8000-000000000000/retry`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: expect.any(String), code: 'not_found' });
  });
});
