import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql } from './support/graphql-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 60_000);
afterAll(() => app?.close());

describe('UsageBase.whenVisible', () => {
  it('is the base while the connection sees it and null once it does not, so the list still answers with a lost base in it', async () => {
    const control = sandboxControl(app.url);
    const user = async (name: string) => {
      const made = await control<{ id: string; token: string }>('POST', 'users', { email: `${name}@example.com` });
      const base = await control<{ id: string }>('POST', `users/${made.id}/bases`, { name: `${name}'s base` });
      return { ...made, base };
    };
    const ada = await user('visible-ada');
    const bob = await user('visible-bob');
    const account = await app.newAccount('when-visible');
    expect((await account.http('PUT', '/connection', { body: { token: ada.token } })).status).toBe(200);
    const tracked = await account.http('POST', '/usage/bases', { body: { baseId: ada.base.id } });
    expect(tracked.status).toBe(201);
    expect((await account.http('POST', `/usage/bases/${tracked.body.base.id}/run`)).status).toBe(200);
    const graphql = createGraphql(app.url, account.apiKey);
    const query = `{ usageBases { nodes { restId upstreamAccess whenVisible {
      restId latestSnapshot { date } limits { recordLimit } forecast { status } schedule { nextRunAt } trend: snapshots(first: 30) { totalCount } } } } }`;

    const seen = await graphql(query);
    expect(seen.errors).toBeUndefined();
    expect(seen.data.usageBases.nodes).toEqual([
      {
        restId: tracked.body.base.id,
        upstreamAccess: 'VISIBLE',
        whenVisible: expect.objectContaining({ restId: tracked.body.base.id, latestSnapshot: { date: expect.any(String) } }),
      },
    ]);
    expect(seen.data.usageBases.nodes[0].whenVisible.trend.totalCount).toBe(1);

    // Reconnected as Bob, who does not see Ada's base: the list answers, the base marked and its data null.
    expect((await account.http('PUT', '/connection', { body: { token: bob.token } })).status).toBe(200);
    const lost = await graphql(query);
    expect(lost.errors).toBeUndefined();
    expect(lost.data.usageBases.nodes).toEqual([{ restId: tracked.body.base.id, upstreamAccess: 'LOST', whenVisible: null }]);
  });
});
