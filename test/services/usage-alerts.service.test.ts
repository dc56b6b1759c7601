import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageAlert } from '../../src/entities/index.js';
import { usageBaseInput } from '../../src/services/usage-base.input.js';
import { percentOf } from '../../src/services/usage-insight/usage-alert.service.js';
import { usageAlertInput } from '../../src/services/usage-insight/usage-alert.input.js';
import { usageLimitsInput } from '../../src/services/usage-limits/usage-limits.input.js';
import { webhookInput } from '../../src/services/webhooks/webhook.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { asQuery, parsed, refusal } from '../support/service-calls.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';

const HOOK_HOST = '127.0.0.1:65000';

/** Threshold alerts over a sequence of real counts of a sandbox base whose records are added and deleted between them, without HTTP. */
describe('usage threshold alerts', () => {
  let t: TestServices;

  beforeAll(async () => {
    t = await startTestServices({ ...FAST_UPSTREAM, WEBHOOK_ALLOWED_HOSTS: HOOK_HOST });
    // Counts follow each other closely here; the per-base limit of real use would only slow the test.
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  });
  afterAll(() => t?.close());

  const track = (name: string) => t.services.usageBases.create(t.accountId, parsed(usageBaseInput.create, { baseId: t.baseId(name) }));
  const run = async (usageBaseId: string) => (await t.services.usageCounts.count(t.accountId, usageBaseId)).totalRecords;
  const setLimits = (usageBaseId: string, body: Record<string, unknown>) =>
    t.services.usageLimits.update(t.accountId, usageBaseId, parsed(usageLimitsInput.update, body));
  /** A page of alerts, the query as GET /usage/alerts takes it. */
  const page = (query: Record<string, string | number> = {}, accountId = t.accountId) =>
    t.services.usageAlerts.list(accountId, parsed(usageAlertInput.list, asQuery(query)));
  /** An alert as REST and GraphQL show it. */
  const shown = (alert: UsageAlert) => ({
    id: alert.id,
    usageBaseId: alert.usageBaseId,
    baseId: alert.baseId,
    metric: alert.metric,
    threshold: alert.threshold,
    value: alert.value,
    limit: alert.limit,
    percent: percentOf(alert.value, alert.limit),
    date: alert.date,
  });
  const alertsOf = async (baseId: string) => (await page({ baseId })).alerts.map(shown);

  it('records one alert per upward crossing, again only after a drop below', async () => {
    const base = await track(DEMO_BASES.catalog);
    const records = await run(base.id);
    // Four more records reach the limit; the count now is at or above 50 %.
    const limit = records + 4;
    await setLimits(base.id, { recordLimit: limit, thresholds: [50, 100] });

    await run(base.id);
    expect((await alertsOf(base.baseId)).map((a) => a.threshold)).toEqual([50]);
    await run(base.id);
    expect(await alertsOf(base.baseId), 'a day spent above a threshold is not a new crossing').toHaveLength(1);

    const [table] = t.sandbox.store.getBase(base.baseId)!.tables;
    const added = t.sandbox.store.createRecords(base.baseId, table!.id, [{}, {}, {}, {}]);
    expect(await run(base.id)).toBe(limit);
    await run(base.id);
    expect((await alertsOf(base.baseId)).map((a) => a.threshold)).toEqual([100, 50]);

    t.sandbox.store.deleteRecords(base.baseId, table!.id, [added[0]!.id]);
    await run(base.id);
    expect(await alertsOf(base.baseId), 'falling below adds nothing').toHaveLength(2);
    t.sandbox.store.createRecords(base.baseId, table!.id, [{}]);
    await run(base.id);
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
    });
    expect(alerts[2]!.percent).toBe(Math.round((records / limit) * 1000) / 10);
  });

  it('alerts on storage too, pages newest first with a cursor of its own, and keeps accounts apart', async () => {
    const base = await track(DEMO_BASES.marketing);
    const bytes = (await t.services.usageCounts.count(t.accountId, base.id)).totalAttachmentBytes;
    expect(bytes).toBeGreaterThan(0);
    await setLimits(base.id, { storageLimitBytes: bytes, recordLimit: 1, thresholds: [10, 20, 30, 40, 100] });
    await run(base.id);
    const all = await alertsOf(base.baseId);
    expect(all).toHaveLength(10);
    expect(new Set(all.map((a) => a.metric))).toEqual(new Set(['records', 'storage']));
    expect(all.find((a) => a.metric === 'storage' && a.threshold === 100)).toMatchObject({ value: bytes, limit: bytes, percent: 100 });

    const page1 = await page({ baseId: base.baseId, limit: 4 });
    expect(page1.alerts).toHaveLength(4);
    const page2 = await page({ baseId: base.baseId, limit: 4, cursor: page1.nextCursor! });
    const page3 = await page({ baseId: base.baseId, limit: 4, cursor: page2.nextCursor! });
    expect(page3.nextCursor).toBeUndefined();
    expect([...page1.alerts, ...page2.alerts, ...page3.alerts].map((a) => a.id)).toEqual(all.map((a) => a.id));

    expect((await page({}, t.other.accountId)).alerts).toEqual([]);
    expect(await refusal(() => page({ cursor: page1.nextCursor! }, t.other.accountId))).toBe('invalid_request');
    for (const query of ['limit=0', 'limit=101', 'cursor=abc', 'baseId=nope']) {
      expect(await refusal(() => page(Object.fromEntries(new URLSearchParams(query)))), query).toBe('invalid_request');
    }
    // Gone with the base.
    await t.services.usageBases.remove(t.accountId, base.id);
    expect(await alertsOf(base.baseId)).toEqual([]);
  });

  it('a usage_threshold webhook takes no table or column and does not watch the base upstream', async () => {
    const base = await track(DEMO_BASES.changeLog);
    const create = (extra: Record<string, unknown>) =>
      t.services.webhooks.create(
        t.accountId,
        parsed(webhookInput.create, { baseId: base.baseId, event: 'usage_threshold', webhookUrl: `http://${HOOK_HOST}/x`, ...extra }),
      );
    for (const extra of [{ tableId: 'tblAAAAAAAAAAAAAA' }, { columnId: 'fldAAAAAAAAAAAAAA' }]) {
      expect(await refusal(() => create(extra)), JSON.stringify(extra)).toBe('invalid_request');
    }
    const { webhook } = await create({});
    expect(webhook).toMatchObject({ event: 'usage_threshold', tableId: '', columnId: null });
    const watches = await t.dataSource.query('SELECT base_id FROM upstream_watch WHERE base_id = ?', [base.baseId]);
    expect(watches).toEqual([]);
  });
});
