import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowser, PASSWORD, uniqueEmail, type Browser } from '../auth/browser.js';
import { createHttp } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql } from './support/graphql-client.js';
import type { JsonBody } from '../support/json-body.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

async function signUp(accountName?: string): Promise<Browser> {
  const browser = createBrowser(app.url);
  const res = await browser.request('POST', '/auth/sign-up', { body: { email: uniqueEmail('keys'), password: PASSWORD, accountName } });
  expect(res.status).toBe(201);
  return browser;
}

/** A GraphQL operation sent as the web application sends it: the session cookie and X-CSRF-Token. */
async function gql(browser: Browser, query: string, variables?: Record<string, unknown>) {
  const res = await browser.request('POST', '/graphql', { body: { query, variables }, csrf: true });
  expect(res.status).toBe(200);
  return res.body as { data?: JsonBody; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

const LIST = '{ viewer { apiKeys(first: 10) { totalCount edges { cursor node { id restId name prefix createdAt lastUsedAt } } } } }';
const CREATE =
  'mutation($name: String!) { createApiKey(input: { name: $name }) { key apiKey { id name prefix } apiKeyEdge { cursor node { id } } } }';
const REVOKE = 'mutation($id: ID!) { revokeApiKey(input: { id: $id }) { deletedId } }';

describe('viewer.apiKeys, createApiKey, revokeApiKey', () => {
  it('creates a named key shown once, lists it without the key, notes its use, and revokes it at once', async () => {
    const browser = await signUp();
    const created = await gql(browser, CREATE, { name: '  CI deploys ' });
    expect(created.errors).toBeUndefined();
    const { key, apiKey, apiKeyEdge } = created.data.createApiKey;
    expect(key).toMatch(/^sk_[A-Za-z0-9]{43}$/);
    expect(apiKey).toEqual({ id: apiKeyEdge.node.id, name: 'CI deploys', prefix: key.slice(0, apiKey.prefix.length) });

    const listed = await gql(browser, LIST);
    expect(listed.data.viewer.apiKeys.totalCount).toBe(1);
    const [edge] = listed.data.viewer.apiKeys.edges;
    expect(edge.cursor).toBe(apiKeyEdge.cursor);
    expect(edge.node).toMatchObject({ id: apiKey.id, name: 'CI deploys', prefix: apiKey.prefix, lastUsedAt: null });
    expect(Date.parse(edge.node.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(listed)).not.toContain(key);

    const rest = createHttp(app.url, key);
    expect((await rest('GET', '/usage/bases')).status).toBe(200);
    const used = await gql(browser, LIST);
    expect(Date.parse(used.data.viewer.apiKeys.edges[0].node.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);

    const revoked = await gql(browser, REVOKE, { id: apiKey.id });
    expect(revoked.data.revokeApiKey.deletedId).toBe(apiKey.id);
    expect((await rest('GET', '/usage/bases')).status).toBe(401);
    expect((await gql(browser, LIST)).data.viewer.apiKeys.totalCount).toBe(0);
    const again = await gql(browser, REVOKE, { id: apiKey.id });
    expect(again.errors?.map((e) => e.extensions?.code)).toEqual(['not_found']);
  });

  it('pages both ways, and another account can neither see nor revoke the keys', async () => {
    const owner = await signUp();
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) ids.push((await gql(owner, CREATE, { name })).data.createApiKey.apiKey.id);
    const first = await gql(owner, '{ viewer { apiKeys(first: 2) { pageInfo { hasNextPage endCursor } nodes { id } } } }');
    const page = first.data.viewer.apiKeys;
    expect(page.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(0, 2));
    expect(page.pageInfo.hasNextPage).toBe(true);
    const back = await gql(owner, 'query($b: String) { viewer { apiKeys(last: 5, before: $b) { nodes { id } } } }', {
      b: page.pageInfo.endCursor,
    });
    expect(back.data.viewer.apiKeys.nodes.map((n: { id: string }) => n.id)).toEqual(ids.slice(0, 1));

    const stranger = await signUp();
    const refused = await gql(stranger, REVOKE, { id: ids[0] });
    expect(refused.errors?.map((e) => e.extensions?.code)).toEqual(['not_found']);
    expect((await gql(stranger, `{ node(id: "${ids[0]}") { id } }`)).data.node).toBeNull();
    expect((await gql(owner, `{ node(id: "${ids[0]}") { id ... on ApiKey { name } } }`)).data.node).toEqual({ id: ids[0], name: 'one' });
    expect((await gql(owner, LIST)).data.viewer.apiKeys.totalCount).toBe(3);
  });

  it('refuses an empty name as the API does, and a cookie write without X-CSRF-Token', async () => {
    const browser = await signUp();
    const empty = await gql(browser, CREATE, { name: '   ' });
    expect(empty.errors?.map((e) => e.extensions?.code)).toEqual(['invalid_request']);
    expect(empty.errors?.[0].message).toMatch(/input\.name/);
    const noCsrf = await browser.request('POST', '/graphql', { body: { query: CREATE, variables: { name: 'x' } } });
    expect(noCsrf.status).toBe(403);
    expect((await gql(browser, LIST)).data.viewer.apiKeys.totalCount).toBe(0);
  });
});

describe('updateAccount', () => {
  it('renames the account (seen by /auth/session) and refuses an empty name', async () => {
    const browser = await signUp('Old name');
    const renamed = await gql(browser, 'mutation { updateAccount(input: { name: " Ops team " }) { viewer { name } } }');
    expect(renamed.data.updateAccount.viewer.name).toBe('Ops team');
    expect((await browser.request('GET', '/auth/session')).body.account.name).toBe('Ops team');
    expect((await gql(browser, '{ viewer { name } }')).data.viewer.name).toBe('Ops team');
    const empty = await gql(browser, 'mutation { updateAccount(input: { name: "" }) { viewer { name } } }');
    expect(empty.errors?.map((e) => e.extensions?.code)).toEqual(['invalid_request']);
  });

  it('shows the new name at once to a caller whose key was just used (viewer and node), and to every other key', async () => {
    const { apiKey, accountId } = await app.newAccount('Before');
    const { apiKey: secondKey } = await app.running.services.accounts.createKey(accountId);
    const graphql = createGraphql(app.url, apiKey);
    const VIEWER = '{ viewer { id name } }';
    const before = await graphql(VIEWER);
    expect(before.data.viewer.name).toBe('Before');
    expect((await createGraphql(app.url, secondKey)(VIEWER)).data.viewer.name).toBe('Before');
    const renamed = await graphql('mutation { updateAccount(input: { name: "After" }) { viewer { name } } }');
    expect(renamed.data.updateAccount.viewer.name).toBe('After');
    expect((await graphql(VIEWER)).data.viewer).toEqual({ id: before.data.viewer.id, name: 'After' });
    expect((await createGraphql(app.url, secondKey)(VIEWER)).data.viewer.name).toBe('After');
    expect(
      (await graphql('query($id: ID!) { node(id: $id) { ... on Account { name } } }', { id: before.data.viewer.id })).data.node.name,
    ).toBe('After');
  });
});
