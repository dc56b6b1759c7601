import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from '../webhooks/support/receiver.js';
import { verifyStandardWebhook } from '../webhooks/support/standard-webhooks.js';
import { createWebhook, deliveryEnv } from '../webhooks/support/webhook-support.js';

/**
 * Threshold alerts over HTTP: their delivery to a receiver (signed, once each), GET /usage/alerts's shape, paging and a
 * 400. When an alert is recorded, paging and refusals: test/services/usage-alerts.service.test.ts.
 */
describe('usage threshold alerts', () => {
  let app: TestApp;
  let receiver: Receiver;
  let api: SandboxApi;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    app = await startTestApp(deliveryEnv(receiver.port));
    // Counts follow each other closely here; the per-base limit of real use would only slow the test.
    app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
    api = sandboxApi(app.url);
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
  });

  const alertsOf = async (baseId: string) =>
    (await app.http('GET', `/usage/alerts?baseId=${baseId}`)).body.alerts as Array<Record<string, unknown>>;

  it('delivers each alert once, signed, and answers GET /usage/alerts in the documented shape', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    const run = async () => {
      const res = await app.http('POST', `/usage/bases/${base.id}/run`);
      expect(res.status).toBe(200);
      return res.body.totalRecords as number;
    };
    const records = await run();
    const { webhook, secret } = await createWebhook(app.http, {
      baseId: base.baseId,
      event: 'usage_threshold',
      webhookUrl: receiver.url('/usage'),
    });
    expect(webhook).toMatchObject({ event: 'usage_threshold', tableId: '', columnId: null });
    // Four more records reach the limit; the count now is at or above 50 %: 50, then 100, a drop below, 100 again.
    const limit = records + 4;
    await app.http('PUT', `/usage/bases/${base.id}/limits`, { body: { recordLimit: limit, thresholds: [50, 100] } });
    await run();
    const [table] = await api.schema(base.baseId);
    const added = (await api.createRecords(base.baseId, table!.id, [{}, {}, {}, {}])).records as Array<{ id: string }>;
    expect(await run()).toBe(limit);
    await api.deleteRecords(base.baseId, table!.id, [added[0]!.id]);
    await run();
    await api.createRecords(base.baseId, table!.id, [{}]);
    await run();
    const res = await app.http('GET', `/usage/alerts?baseId=${base.baseId}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['alerts']);
    const alerts = res.body.alerts as Array<Record<string, unknown>>;
    expect(alerts.map((a) => a.threshold)).toEqual([100, 100, 50]);
    expect(alerts[0]).toEqual({
      id: expect.any(String),
      usageBaseId: base.id,
      baseId: base.baseId,
      metric: 'records',
      threshold: 100,
      value: limit,
      limit,
      percent: 100,
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      createdAt: expect.any(String),
    });

    const delivered = await receiver.waitFor('/usage', 3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at('/usage'), 'each alert is delivered once').toHaveLength(3);
    for (const request of delivered) expect(verifyStandardWebhook(secret, request.headers, request.body)).toBe(true);
    expect(delivered.map((r) => (r.json as unknown as { data: { threshold: number } }).data.threshold)).toEqual([50, 100, 100]);
    expect(delivered[1]!.json).toEqual({
      type: 'usage_threshold',
      id: delivered[1]!.headers['webhook-id'],
      timestamp: expect.any(String),
      data: {
        webhookId: webhook.webhookId,
        baseId: base.baseId,
        usageBaseId: base.id,
        metric: 'records',
        threshold: 100,
        value: limit,
        limit,
        percent: 100,
        date: alerts[1]!.date,
      },
    });
    // The delivery log shows them like every delivery.
    const log = await app.http('GET', `/webhooks/${webhook.webhookId}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries.map((d: { eventType: string; status: string }) => [d.eventType, d.status])).toEqual([
      ['usage_threshold', 'succeeded'],
      ['usage_threshold', 'succeeded'],
      ['usage_threshold', 'succeeded'],
    ]);
  });

  it('pages with nextCursor in the query, and answers a refused query with 400 invalid_request', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    await app.http('PUT', `/usage/bases/${base.id}/limits`, { body: { recordLimit: 1, thresholds: [10, 20, 30] } });
    expect((await app.http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
    const all = await alertsOf(base.baseId);
    expect(all).toHaveLength(3);
    const page1 = await app.http('GET', `/usage/alerts?baseId=${base.baseId}&limit=2`);
    expect(page1.body.alerts).toHaveLength(2);
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await app.http('GET', `/usage/alerts?baseId=${base.baseId}&limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.status).toBe(200);
    expect(page2.body).not.toHaveProperty('nextCursor');
    expect([...page1.body.alerts, ...page2.body.alerts].map((a: { id: string }) => a.id)).toEqual(all.map((a) => a.id));
    const refused = await app.http('GET', '/usage/alerts?limit=101');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: expect.stringMatching(/^query\.limit: /), code: 'invalid_request' });
  });
});
