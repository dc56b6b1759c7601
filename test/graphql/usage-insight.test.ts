import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql, type Graphql } from './support/graphql-client.js';

let app: TestApp;
let graphql: Graphql;
beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9' });
  graphql = createGraphql(app.url, app.apiKey);
});
afterAll(() => app?.close());

const ALERTS = `query($first: Int, $after: String, $baseId: ID) {
  usageAlerts(first: $first, after: $after, baseId: $baseId) {
    totalCount pageInfo { hasNextPage endCursor } nodes { restId usageBaseId baseId metric threshold value limit percent date createdAt }
  }
}`;

describe('usage insight over GraphQL', () => {
  it('lists the alerts REST lists, paging forward, and takes usage_threshold webhooks', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    const records = (await app.http('POST', `/usage/bases/${base.id}/run`)).body.totalRecords as number;
    await app.http('PUT', `/usage/bases/${base.id}/limits`, { body: { recordLimit: records, thresholds: [50, 90, 100] } });
    await app.http('POST', `/usage/bases/${base.id}/run`);
    const rest = (await app.http('GET', `/usage/alerts?baseId=${base.baseId}`)).body.alerts as Array<Record<string, unknown>>;
    expect(rest).toHaveLength(3);

    const first = (await graphql(ALERTS, { first: 2, baseId: base.baseId })).data.usageAlerts;
    expect(first.totalCount).toBe(3);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await graphql(ALERTS, { first: 2, after: first.pageInfo.endCursor, baseId: base.baseId })).data.usageAlerts;
    expect(second.pageInfo.hasNextPage).toBe(false);
    const nodes = [...first.nodes, ...second.nodes];
    expect(nodes.map((n: { restId: string }) => n.restId)).toEqual(rest.map((a) => a.id));
    expect(nodes[0]).toEqual({
      restId: rest[0]!.id,
      usageBaseId: base.id,
      baseId: base.baseId,
      metric: 'RECORDS',
      threshold: 100,
      value: records,
      limit: records,
      percent: 100,
      date: rest[0]!.date,
      createdAt: rest[0]!.createdAt,
    });
    expect((await graphql(ALERTS, { first: 101 })).errors?.[0]?.extensions?.code).toBe('invalid_request');
    const ofBase = await graphql(`query($id: ID!) { usageBase(id: $id) { alerts(first: 2) { totalCount nodes { restId } } } }`, {
      id: base.id,
    });
    const named = await graphql(`{ usageAlerts(first: 1) { nodes { usageBase { restId baseName } } } }`);
    expect(named.data.usageAlerts.nodes[0].usageBase).toEqual({ restId: base.id, baseName: base.baseName });
    expect(ofBase.data.usageBase.alerts).toEqual({ totalCount: 3, nodes: rest.slice(0, 2).map((a) => ({ restId: a.id })) });

    const created = await graphql(
      `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { event tableId columnId } } }`,
      { input: { baseId: base.baseId, event: 'USAGE_THRESHOLD', webhookUrl: 'http://127.0.0.1:9/usage' } },
    );
    expect(created.errors, JSON.stringify(created.errors)).toBeUndefined();
    expect(created.data.createWebhook.webhook).toEqual({ event: 'USAGE_THRESHOLD', tableId: '', columnId: null });
  });

  it('gives each alert a global id that node(id) resolves, for this account only', async () => {
    const own = await app.newAccount('alerts');
    const graphql = createGraphql(app.url, own.apiKey);
    const base = await trackBase(own.http, DEMO_BASES.catalog);
    const records = (await own.http('POST', `/usage/bases/${base.id}/run`)).body.totalRecords as number;
    await own.http('PUT', `/usage/bases/${base.id}/limits`, { body: { recordLimit: records, thresholds: [100] } });
    await own.http('POST', `/usage/bases/${base.id}/run`);
    const FIELDS = 'id restId metric threshold usageBase { restId }';
    const listed = (await graphql(`{ usageAlerts(first: 1) { nodes { ${FIELDS} } } }`)).data.usageAlerts.nodes[0];
    expect(listed).toMatchObject({ restId: expect.any(String), usageBase: { restId: base.id } });
    expect(listed.id).not.toBe(listed.restId);
    const NODE = `query($id: ID!) { node(id: $id) { __typename ... on UsageAlert { ${FIELDS} } } }`;
    expect((await graphql(NODE, { id: listed.id })).data.node).toEqual({ __typename: 'UsageAlert', ...listed });
    expect((await createGraphql(app.url, app.other.apiKey)(NODE, { id: listed.id })).data.node).toBeNull();
  });

  it('sets countOnlyWhenChanged and shows each day’s count cost with the snapshot history', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    await app.http('POST', `/usage/bases/${base.id}/run`);
    const set = await graphql(
      `mutation($input: SetUsageCountingInput!) { setUsageCounting(input: $input) { clientMutationId counting { countOnlyWhenChanged auditWatched savedCalls days { date apiCalls carriedOver fromMirror } } } }`,
      { input: { id: base.id, countOnlyWhenChanged: true, clientMutationId: 'c1' } },
    );
    expect(set.errors).toBeUndefined();
    const rest = (await app.http('GET', `/usage/bases/${base.id}/counting`)).body.counting;
    expect(rest.countOnlyWhenChanged).toBe(true);
    expect(set.data.setUsageCounting).toEqual({ clientMutationId: 'c1', counting: rest });
    expect(rest.days[0].apiCalls).toBeGreaterThan(0);
    const read = await graphql(
      `query($id: ID!) { usageBase(id: $id) { counting { countOnlyWhenChanged } snapshots(first: 1) { nodes { date apiCalls carriedOver } } } }`,
      { id: base.id },
    );
    expect(read.data.usageBase.counting.countOnlyWhenChanged).toBe(true);
    const { fromMirror: _fromMirror, ...day } = rest.days[0];
    expect(read.data.usageBase.snapshots.nodes).toEqual([day]);
  });
});
