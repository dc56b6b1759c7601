import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from '../webhooks/support/receiver.js';
import { verifyStandardWebhook } from '../webhooks/support/standard-webhooks.js';
import { createWebhook, deliveryEnv } from '../webhooks/support/webhook-support.js';

/** Threshold alerts over a sequence of real counts of a sandbox base whose records are added and deleted between them. */
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

  it('records one alert per upward crossing, again only after a drop below, and delivers each once, signed', async () => {
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
    // Four more records reach the limit; the count now is at or above 50 %.
    const limit = records + 4;
    await app.http('PUT', `/usage/bases/${base.id}/limits`, { body: { recordLimit: limit, thresholds: [50, 100] } });

    await run();
    expect((await alertsOf(base.baseId)).map((a) => a.threshold)).toEqual([50]);
    await run();
    expect(await alertsOf(base.baseId), 'a day spent above a threshold is not a new crossing').toHaveLength(1);

    const [table] = await api.schema(base.baseId);
    const added = (await api.createRecords(base.baseId, table!.id, [{}, {}, {}, {}])).records as Array<{ id: string }>;
    expect(await run()).toBe(limit);
    await run();
    expect((await alertsOf(base.baseId)).map((a) => a.threshold)).toEqual([100, 50]);

    await api.deleteRecords(base.baseId, table!.id, [added[0]!.id]);
    await run();
    expect(await alertsOf(base.baseId), 'falling below adds nothing').toHaveLength(2);
    await api.createRecords(base.baseId, table!.id, [{}]);
    await run();
    const alerts = await alertsOf(base.baseId);
    expect(
      alerts.map((a) => a.threshold),
      'crossing again after a drop below is a new alert',
    ).toEqual([100, 100, 50]);
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
    expect(alerts[2]!.percent).toBe(Math.round((records / limit) * 1000) / 10);

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

  it('alerts on storage too, pages newest first with a cursor of its own, and keeps accounts apart', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    const first = await app.http('POST', `/usage/bases/${base.id}/run`);
    const bytes = first.body.totalAttachmentBytes as number;
    expect(bytes).toBeGreaterThan(0);
    await app.http('PUT', `/usage/bases/${base.id}/limits`, {
      body: { storageLimitBytes: bytes, recordLimit: 1, thresholds: [10, 20, 30, 40, 100] },
    });
    await app.http('POST', `/usage/bases/${base.id}/run`);
    const all = await alertsOf(base.baseId);
    expect(all).toHaveLength(10);
    expect(new Set(all.map((a) => a.metric))).toEqual(new Set(['records', 'storage']));
    expect(all.find((a) => a.metric === 'storage' && a.threshold === 100)).toMatchObject({ value: bytes, limit: bytes, percent: 100 });

    const page1 = await app.http('GET', `/usage/alerts?baseId=${base.baseId}&limit=4`);
    expect(page1.body.alerts).toHaveLength(4);
    const page2 = await app.http('GET', `/usage/alerts?baseId=${base.baseId}&limit=4&cursor=${page1.body.nextCursor}`);
    const page3 = await app.http('GET', `/usage/alerts?baseId=${base.baseId}&limit=4&cursor=${page2.body.nextCursor}`);
    expect(page3.body.nextCursor).toBeUndefined();
    expect([...page1.body.alerts, ...page2.body.alerts, ...page3.body.alerts].map((a: { id: string }) => a.id)).toEqual(
      all.map((a) => a.id),
    );

    expect((await app.other.http('GET', '/usage/alerts')).body.alerts).toEqual([]);
    const refused = await app.other.http('GET', `/usage/alerts?cursor=${page1.body.nextCursor}`);
    expect(refused.status).toBe(400);
    for (const query of ['limit=0', 'limit=101', 'cursor=abc', 'baseId=nope']) {
      const res = await app.http('GET', `/usage/alerts?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    }
    // Gone with the base.
    expect((await app.http('DELETE', `/usage/bases/${base.id}`)).status).toBe(204);
    expect(await alertsOf(base.baseId)).toEqual([]);
  });

  it('a usage_threshold webhook takes no table or column and does not watch the base upstream', async () => {
    const base = await trackBase(app.http, DEMO_BASES.changeLog);
    for (const extra of [{ tableId: 'tblAAAAAAAAAAAAAA' }, { columnId: 'fldAAAAAAAAAAAAAA' }]) {
      const res = await app.http('POST', '/webhooks', {
        body: { baseId: base.baseId, event: 'usage_threshold', webhookUrl: receiver.url('/x'), ...extra },
      });
      expect(res.status).toBe(400);
    }
    await createWebhook(app.http, { baseId: base.baseId, event: 'usage_threshold', webhookUrl: receiver.url('/x') });
    const watches = await app.running.dataSource.query('SELECT base_id FROM upstream_watch WHERE base_id = ?', [base.baseId]);
    expect(watches).toEqual([]);
  });
});
