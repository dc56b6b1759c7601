import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxApi } from '../support/sandbox-api.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql } from './support/graphql-client.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
}, 60_000);
afterAll(() => app?.close());

const QUERY = '{ viewer { connection { email } sharedConnection { upstreamUserId email } } }';

describe('viewer.sharedConnection', () => {
  it('says whose shared connection acts for an account without its own, and is null once it connects its own', async () => {
    const account = await app.newAccount('shared-connection');
    const graphql = createGraphql(app.url, account.apiKey);
    const shared = await sandboxApi(app.url).call('GET', '/meta/whoami');
    const before = await graphql(QUERY);
    expect(before.errors).toBeUndefined();
    expect(before.data.viewer).toEqual({ connection: null, sharedConnection: { upstreamUserId: shared.id, email: shared.email ?? null } });

    const user = await sandboxControl(app.url)<{ token: string; email: string }>('POST', 'users', { email: 'own-connection@example.com' });
    expect((await account.http('PUT', '/connection', { body: { token: user.token } })).status).toBe(200);
    const after = await graphql(QUERY);
    expect(after.errors).toBeUndefined();
    expect(after.data.viewer).toEqual({ connection: { email: user.email }, sharedConnection: null });
  });
});
