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

const requestsTo = async (baseId: string) =>
  (await control<{ byBase: Record<string, { requests: number }> }>('GET', 'stats')).byBase[baseId]?.requests ?? 0;

describe('a base the account’s connection no longer sees (CONTRACT §8)', () => {
  it('is not_found on every endpoint but DELETE, and is marked lost where it is listed (REST and GraphQL)', async () => {
    const ada = await upstreamUser('lost-ada');
    const bob = await upstreamUser('lost-bob');
    const account = await watchingAccount('reconnected', ada);
    const { http, usageBaseId, configId, webhookId } = account;
    expect((await http('GET', '/usage/bases')).body).toEqual({ bases: [expect.objectContaining({ id: usageBaseId })] });

    // The account reconnects as another upstream user, who does not see Ada's base.
    expect((await http('PUT', '/connection', { body: { token: bob.token } })).status).toBe(200);

    const endpoints: Array<[string, string, unknown?]> = [
      ['GET', `/usage/bases/${usageBaseId}/snapshots`],
      ['GET', `/usage/bases/${usageBaseId}/snapshots/latest`],
      ['GET', `/usage/bases/${usageBaseId}/limits`],
      ['PUT', `/usage/bases/${usageBaseId}/limits`, { plan: 'team' }],
      ['GET', `/usage/bases/${usageBaseId}/forecast`],
      ['GET', `/usage/bases/${usageBaseId}/counting`],
      ['PUT', `/usage/bases/${usageBaseId}/counting`, { countOnlyWhenChanged: true }],
      ['GET', `/usage/bases/${usageBaseId}/schedule`],
      ['PATCH', `/usage/bases/${usageBaseId}`, { baseName: 'Renamed' }],
      ['POST', `/usage/bases/${usageBaseId}/run`],
      ['GET', `/monitoring-config/${configId}`],
      ['GET', `/monitoring-config/${configId}/status`],
      ['GET', `/monitoring-config/${configId}/changes`],
      ['PATCH', `/monitoring-config/${configId}`, { scope: 'schema_only' }],
      ['GET', `/webhooks/${webhookId}/deliveries`],
      ['POST', `/webhooks/${webhookId}/rotate-secret`],
    ];
    const baseRequests = await requestsTo(ada.base.id);
    for (const [method, path, body] of endpoints) {
      const res = await http(method, path, body === undefined ? {} : { body });
      expect({ method, path, status: res.status, code: res.body?.code }).toEqual({ method, path, status: 404, code: 'not_found' });
    }
    // Known from the connection's list of bases: nothing was asked of the base itself.
    expect(await requestsTo(ada.base.id)).toBe(baseRequests);

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

  it('turns the upstream’s 403 during a count into 404 when the connection’s list confirms it, and marks the base lost', async () => {
    const ada = await upstreamUser('narrowed-ada');
    const account = await app.newAccount('narrowed');
    expect((await account.http('PUT', '/connection', { body: { token: ada.token } })).status).toBe(200);
    const tracked = await account.http('POST', '/usage/bases', { body: { baseId: ada.base.id } });
    expect(tracked.status).toBe(201);
    // The same upstream user, now through a token for the other base only: the list kept for the connection (a
    // minute) still names the tracked base, so the count is tried and the upstream refuses it.
    const narrow = await control<{ token: string }>('POST', `users/${ada.id}/tokens`, { baseIds: [ada.log.id] });
    expect((await account.http('PUT', '/connection', { body: { token: narrow.token } })).status).toBe(200);
    expect((await account.http('GET', '/usage/bases')).body.lost).toBeUndefined();

    const run = await account.http('POST', `/usage/bases/${tracked.body.base.id}/run`);
    expect(run.status).toBe(404);
    expect(run.body).toEqual({ code: 'not_found', message: expect.any(String) });
    expect((await account.http('GET', '/usage/bases')).body.lost).toEqual([tracked.body.base.id]);
    expect((await account.http('GET', `/usage/bases/${tracked.body.base.id}/snapshots`)).status).toBe(404);
  });

  it('stops reading the watch of a base no one watching it sees, skips its daily count, and resumes once it is seen again', async () => {
    const ada = await upstreamUser('watch-ada');
    const bob = await upstreamUser('watch-bob');
    const account = await watchingAccount('watch-owner', ada);
    const { watches, changeIngest, usageSchedule } = app.running.services;
    const watch = (await watches.find({ baseId: ada.base.id }))!;
    expect(watch.status).toBe('active');

    expect((await account.http('PUT', '/connection', { body: { token: bob.token } })).status).toBe(200);
    // The first read is refused; no one else watches the base: marked lost, not failed (no retry in 30 s).
    await expect(changeIngest.ingest(watch.id)).resolves.toMatchObject({ payloads: 0 });
    expect((await watches.findById(watch.id))!.status).toBe('lost');
    const before = await requestsTo(ada.base.id);
    await changeIngest.ingest(watch.id);
    // The daily count is skipped too, and says why; neither asked the base for anything.
    const scheduled = await usageSchedule.runScheduled(account.usageBaseId);
    expect(scheduled.outcome).toBe('base-not-visible');
    expect(scheduled.nextRunAt).toBeInstanceOf(Date);
    expect(await requestsTo(ada.base.id)).toBe(before);

    // Connected as Ada again: the upkeep watches the base anew (a new upstream webhook; the gap is logged).
    expect((await account.http('PUT', '/connection', { body: { token: ada.token } })).status).toBe(200);
    await watches.maintain();
    const revived = (await watches.findById(watch.id))!;
    expect(revived.status).toBe('active');
    expect(revived.webhookId).not.toBe(watch.webhookId);
    expect(revived.continuousSince).not.toBeNull();
    await expect(changeIngest.ingest(watch.id)).resolves.toBeDefined();
  });
});
