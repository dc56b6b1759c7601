import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql, type Graphql } from './support/graphql-client.js';

let app: TestApp;
let graphql: Graphql;

beforeAll(async () => {
  // No change is fed, so the webhook below never sends: its URL only has to pass the guard.
  app = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9' });
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  graphql = createGraphql(app.url, app.apiKey);
});
afterAll(() => app.close());

interface Edge {
  cursor: string;
  node: { id: string };
}

/** The connection's edges as a list query pages them, first to last. */
async function listed(field: string): Promise<Edge[]> {
  const res = await graphql(`{ ${field}(first: 100) { edges { cursor node { id } } } }`);
  expect(res.errors).toBeUndefined();
  return res.data[field].edges;
}

/**
 * The edge a create mutation returns is the one the list holds: same cursor and node, so Relay's @appendEdge puts
 * it where a refetch would, and paging after its cursor continues past it. The delete payload names it by `deletedId`.
 */
async function expectEdgeOfList(field: string, edge: Edge, deleted: () => Promise<{ deletedId: string }>) {
  const edges = await listed(field);
  expect(edges.at(-1)).toEqual(edge);
  const before = await graphql(`query($before: String) { ${field}(last: 100, before: $before) { edges { node { id } } } }`, {
    before: edge.cursor,
  });
  expect(before.data[field].edges.map((e: Edge) => e.node.id)).toEqual(edges.slice(0, -1).map((e) => e.node.id));
  expect((await deleted()).deletedId).toBe(edge.node.id);
  expect((await listed(field)).map((e) => e.node.id)).not.toContain(edge.node.id);
}

describe('create payloads return the new edge; delete payloads the deleted id', () => {
  it('createUsageBase → usageBaseEdge of usageBases; deleteUsageBase → deletedId', async () => {
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    const created = await graphql(
      `mutation($input: CreateUsageBaseInput!) { createUsageBase(input: $input) { usageBase { id } usageBaseEdge { cursor node { id } } } }`,
      { input: { baseId } },
    );
    expect(created.errors).toBeUndefined();
    const { usageBase, usageBaseEdge } = created.data.createUsageBase;
    expect(usageBaseEdge.node).toEqual(usageBase);
    await expectEdgeOfList('usageBases', usageBaseEdge, async () => {
      const res = await graphql('mutation($id: ID!) { deleteUsageBase(input: { id: $id }) { deletedId deletedUsageBaseId } }', {
        id: usageBase.id,
      });
      expect(res.data.deleteUsageBase.deletedUsageBaseId).toBe(usageBase.id);
      return res.data.deleteUsageBase;
    });
  });

  it('createMonitoringConfig → monitoringConfigEdge of monitoringConfigs; deleteMonitoringConfig → deletedId', async () => {
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    const monitoringBaseId = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    const created = await graphql(
      `mutation($input: CreateMonitoringConfigInput!) { createMonitoringConfig(input: $input) { monitoringConfigEdge { cursor node { id } } } }`,
      { input: { baseId, monitoringBaseId } },
    );
    expect(created.errors).toBeUndefined();
    await expectEdgeOfList('monitoringConfigs', created.data.createMonitoringConfig.monitoringConfigEdge, async () => {
      const res = await graphql('mutation($id: ID!) { deleteMonitoringConfig(input: { id: $id }) { deletedId } }', {
        id: created.data.createMonitoringConfig.monitoringConfigEdge.node.id,
      });
      return res.data.deleteMonitoringConfig;
    });
  });

  it('createWebhook → webhookEdge, whose cursor pages the base-filtered list too; deleteWebhook → deletedId', async () => {
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    const created = await graphql(
      `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhookEdge { cursor node { id } } } }`,
      { input: { baseId, event: 'TABLE_CREATE', webhookUrl: 'http://127.0.0.1:9/hook' } },
    );
    expect(created.errors).toBeUndefined();
    const edge: Edge = created.data.createWebhook.webhookEdge;
    const filtered = await graphql(
      'query($baseId: ID, $after: String) { webhooks(baseId: $baseId, after: $after) { edges { node { id } } } }',
      {
        baseId,
        after: edge.cursor,
      },
    );
    expect(filtered.errors).toBeUndefined();
    expect(filtered.data.webhooks.edges).toEqual([]);
    await expectEdgeOfList('webhooks', edge, async () => {
      const res = await graphql('mutation($id: ID!) { deleteWebhook(input: { id: $id }) { deletedId } }', { id: edge.node.id });
      return res.data.deleteWebhook;
    });
  });
});
