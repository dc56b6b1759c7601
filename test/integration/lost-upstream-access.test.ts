import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphql, codesOf } from '../graphql/support/graphql-client.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { JsonBody } from '../support/json-body.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:65000' });
}, 60_000);
afterAll(() => app.close());

const control = <T = JsonBody>(method: string, path: string, body?: unknown) => sandboxControl(app.url)<T>(method, path, body);

/** A sandbox user with two bases of its own (one to watch, one for the Changes table). */
async function upstreamUser(name: string) {
  const user = await control<{ id: string; token: string }>('POST', 'users', { email: `${name}@example.com` });
  const base = await control<{ id: string; tables: Array<{ id: string }> }>('POST', `users/${user.id}/bases`, { name: `${name}'s base` });
  const log = await control<{ id: string }>('POST', `users/${user.id}/bases`, { name: `${name}'s log` });
  return { ...user, base, log };
}

/** An account connected as `user`, tracking, monitoring and forwarding the user's base. */
async function watchingAccount(name: string, user: Awaited<ReturnType<typeof upstreamUser>>) {
  const account = await app.newAccount(name);
  expect((await account.http('PUT', '/connection', { body: { token: user.token } })).status).toBe(200);
  const tracked = await account.http('POST', '/usage/bases', { body: { baseId: user.base.id } });
  expect(tracked.status).toBe(201);
  expect((await account.http('POST', `/usage/bases/${tracked.body.base.id}/run`)).status).toBe(200);
  const config = await account.http('POST', '/monitoring-config', { body: { baseId: user.base.id, monitoringBaseId: user.log.id } });
  expect(config.status).toBe(201);
  const webhook = await account.http('POST', '/webhooks', {
    body: { baseId: user.base.id, event: 'table_create', webhookUrl: 'http://127.0.0.1:65000/hook' },
  });
  expect(webhook.status).toBe(201);
  return {
    ...account,
    usageBaseId: tracked.body.base.id as string,
    configId: config.body.config.id as string,
    webhookId: webhook.body.webhook.webhookId as string,
  };
}

/**
 * A base the account's connection no longer sees (CONTRACT §8) over REST and GraphQL: the 404s, the lists' marks and
 * deletion. Which operations refuse it, the count's 403, the watch it stops reading: test/services/lost-upstream-access.service.test.ts.
 */
describe('a base the account’s connection no longer sees (CONTRACT §8)', () => {
  it('is 404 on REST and not_found on GraphQL, marked lost in REST’s lists and GraphQL’s, and removable by both', async () => {
    const ada = await upstreamUser('lost-ada');
    const bob = await upstreamUser('lost-bob');
    const account = await watchingAccount('reconnected', ada);
    const { http, usageBaseId, configId, webhookId } = account;
    expect((await http('GET', '/usage/bases')).body).toEqual({ bases: [expect.objectContaining({ id: usageBaseId })] });

    // The account reconnects as another upstream user, who does not see Ada's base.
    expect((await http('PUT', '/connection', { body: { token: bob.token } })).status).toBe(200);

    // One of each family (every operation: test/services/lost-upstream-access.service.test.ts).
    for (const path of [
      `/usage/bases/${usageBaseId}/snapshots`,
      `/monitoring-config/${configId}/changes`,
      `/webhooks/${webhookId}/deliveries`,
    ]) {
      const res = await http('GET', path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 404,
        body: { message: expect.any(String), code: 'not_found' },
      });
    }

    const bases = await http('GET', '/usage/bases');
    expect(bases.body).toEqual({ bases: [expect.objectContaining({ id: usageBaseId, baseId: ada.base.id })], lost: [usageBaseId] });
    expect(Object.keys(bases.body.bases[0]).sort()).toEqual([
      'baseId',
      'baseName',
      'createdAt',
      'id',
      'scheduledHour',
      'timezone',
      'updatedAt',
    ]);
    expect((await http('GET', '/monitoring-config')).body).toEqual({
      configs: [expect.objectContaining({ id: configId })],
      lost: [configId],
    });
    // GET /webhooks keeps exactly the nine seed fields: the mark is GraphQL's only.
    const webhooks = await http('GET', '/webhooks');
    expect(webhooks.body.webhooks.map((w: { webhookId: string }) => w.webhookId)).toEqual([webhookId]);
    expect(Object.keys(webhooks.body)).toEqual(['webhooks']);
    expect(Object.keys(webhooks.body.webhooks[0])).toHaveLength(9);

    const graphql = createGraphql(app.url, account.apiKey);
    const listed = await graphql(`{
      usageBases { edges { node { restId upstreamAccess } } }
      monitoringConfigs { edges { node { restId upstreamAccess } } }
      webhooks { edges { node { restId upstreamAccess } } } }`);
    expect(listed.errors).toBeUndefined();
    expect(listed.data.usageBases.edges).toEqual([{ node: { restId: usageBaseId, upstreamAccess: 'LOST' } }]);
    expect(listed.data.monitoringConfigs.edges).toEqual([{ node: { restId: configId, upstreamAccess: 'LOST' } }]);
    expect(listed.data.webhooks.edges).toEqual([{ node: { restId: webhookId, upstreamAccess: 'LOST' } }]);
    for (const query of [
      `{ usageBase(id: "${usageBaseId}") { restId } }`,
      `{ monitoringConfig(id: "${configId}") { restId } }`,
      '{ usageBases { edges { node { snapshots { edges { node { date } } } } } } }',
      '{ usageBases { edges { node { latestSnapshot { date } } } } }',
      '{ monitoringConfigs { edges { node { changes { edges { node { restId } } } } } } }',
      '{ webhooks { edges { node { deliveries { edges { node { restId } } } } } } }',
    ]) {
      expect(codesOf(await graphql(query)), query).toContain('not_found');
    }
    const nodes = await graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: [usageBaseId, configId].map((id, i) => Buffer.from(`${['UsageBase', 'MonitoringConfig'][i]}:${id}`).toString('base64url')),
    });
    expect(nodes.data?.nodes ?? []).toEqual([null, null]);

    // Its own rows can still be removed, by REST and GraphQL.
    expect((await http('DELETE', `/webhooks/${webhookId}`)).status).toBe(204);
    expect((await http('DELETE', `/monitoring-config/${configId}`)).status).toBe(204);
    const deleted = await graphql('mutation($id: ID!) { deleteUsageBase(input: { id: $id }) { deletedUsageBaseId } }', { id: usageBaseId });
    expect(deleted.errors).toBeUndefined();
    expect((await http('GET', '/usage/bases')).body).toEqual({ bases: [] });
  });
});
