import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDelivery, type WebhookDeliveryStatus } from '../../src/entities/index.js';
import { appendChanges } from '../support/change-entries.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { demoTable } from '../webhooks/support/webhook-support.js';
import { createGraphql } from './support/graphql-client.js';
import { pastDays, recordDays } from './support/shapes.js';

let app: TestApp;
/** COUNT statements the app's DataSource ran, as TypeORM announces them. */
let counts: string[] = [];

beforeAll(async () => {
  // Deliveries are written below with a final status: nothing for the sender to do, so no receiver is needed.
  app = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9' });
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  app.running.dataSource.subscribers.push({ beforeQuery: (event) => void (/COUNT\(/i.test(event.query) && counts.push(event.query)) });
}, 120_000);
afterAll(() => app.close());

async function countsOf(graphql: ReturnType<typeof createGraphql>, query: string) {
  counts = [];
  const res = await graphql(query);
  expect(res.errors).toBeUndefined();
  return { data: res.data, counts };
}

describe('totalCount', () => {
  it('counts each base’s days within from/to, all bases in one statement, and nothing when not selected', async () => {
    const account = await app.newAccount('snapshot counts');
    const graphql = createGraphql(app.url, account.apiKey);
    const expected = new Map<string, number>();
    for (let i = 0; i < 8; i += 1) {
      const upstream = app.running.sandbox!.store.addBase({ name: `Counted ${i}`, tables: [] });
      const created = await account.http('POST', '/usage/bases', { body: { baseId: upstream.id } });
      await recordDays(app, created.body.base.id, pastDays(i + 2, '2026-11-20'));
      expected.set(created.body.base.id, i + 2);
    }

    const all = await countsOf(
      graphql,
      '{ usageBases(first: 1) { totalCount edges { node { restId snapshots(first: 1) { totalCount } } } } }',
    );
    expect(all.data.usageBases.totalCount).toBe(8);
    const perBase = await countsOf(graphql, '{ usageBases { nodes { restId snapshots(first: 1) { totalCount } } } }');
    expect(
      new Map(
        perBase.data.usageBases.nodes.map((n: { restId: string; snapshots: { totalCount: number } }) => [n.restId, n.snapshots.totalCount]),
      ),
    ).toEqual(expected);
    expect(perBase.counts).toHaveLength(1);

    const bounded = await countsOf(
      graphql,
      '{ usageBases { nodes { snapshots(first: 1, from: "2026-11-15", to: "2026-11-19") { totalCount } } } }',
    );
    // Base i counted the i + 2 days up to 2026-11-20; the bounds leave out that day and anything before the 15th.
    expect(bounded.data.usageBases.nodes.map((n: { snapshots: { totalCount: number } }) => n.snapshots.totalCount)).toEqual([
      1, 2, 3, 4, 5, 5, 5, 5,
    ]);

    const unasked = await countsOf(graphql, '{ usageBases { nodes { snapshots(first: 1) { nodes { date } } } } }');
    expect(unasked.counts).toEqual([]);
  });

  it('counts each config’s changes with the filter, every config in one statement', async () => {
    const account = await app.newAccount('change counts');
    const graphql = createGraphql(app.url, account.apiKey);
    const baseId = await upstreamBaseId(account.http, DEMO_BASES.catalog);
    for (let i = 0; i < 4; i += 1) {
      // A log base of its own for each: a second config of one base into one log base is refused.
      const monitoringBaseId = app.running.sandbox!.store.addBase({ name: `Count log ${i}`, tables: [] }).id;
      const created = await account.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId } });
      expect(created.status).toBe(201);
      await appendChanges(
        app.running.dataSource,
        created.body.config.id,
        Array.from({ length: 3 + i }, (_, n) => ({
          occurredAt: `2026-05-01T10:0${n}:00.000Z`,
          fieldIds: n % 2 === 0 ? ['fldCOUNTEDAAAAAAA'] : [],
        })),
      );
    }

    const res = await countsOf(
      graphql,
      `{ monitoringConfigs { totalCount nodes { all: changes(first: 1) { totalCount }
        withField: changes(first: 1, filter: { fieldId: "fldCOUNTEDAAAAAAA" }) { totalCount } } } }`,
    );
    expect(res.data.monitoringConfigs.totalCount).toBe(4);
    const byConfig = res.data.monitoringConfigs.nodes.map((n: { all: { totalCount: number }; withField: { totalCount: number } }) => [
      n.all.totalCount,
      n.withField.totalCount,
    ]);
    expect(byConfig.sort()).toEqual([
      [3, 2],
      [4, 2],
      [5, 3],
      [6, 3],
    ]);
    // One statement per filter: `all` and `withField`.
    expect(res.counts).toHaveLength(2);
  });

  it('counts a webhook’s deliveries, with the status filter', async () => {
    const account = await app.newAccount('delivery counts');
    const graphql = createGraphql(app.url, account.apiKey);
    const table = await demoTable(account.http);
    const created = await account.http('POST', '/webhooks', {
      body: { baseId: table.baseId, event: 'record_create', tableId: table.tableId, webhookUrl: 'http://127.0.0.1:9/hook' },
    });
    expect(created.status).toBe(201);
    const webhookId = created.body.webhook.webhookId as string;
    const statuses: WebhookDeliveryStatus[] = ['succeeded', 'succeeded', 'failed', 'succeeded', 'failed'];
    const now = new Date();
    await app.running.dataSource.getRepository(WebhookDelivery).save(
      statuses.map((status, n) => ({
        id: randomUUID(),
        webhookId,
        recordKey: `rec${n}`,
        eventType: 'record_create',
        body: '{}',
        changeCount: 1,
        status,
        attempts: 1,
        retryStep: 0,
        nextAttemptAt: now,
        coalesceUntil: null,
        leaseToken: null,
        leaseUntil: null,
        createdAt: now,
        updatedAt: now,
      })),
    );

    const res = await countsOf(
      graphql,
      `{ webhooks { nodes { restId all: deliveries(first: 1) { totalCount } failed: deliveries(first: 1, status: FAILED) { totalCount } } } }`,
    );
    const node = res.data.webhooks.nodes.find((n: { restId: string }) => n.restId === webhookId);
    expect(node).toMatchObject({ all: { totalCount: 5 }, failed: { totalCount: 2 } });
  });
});
