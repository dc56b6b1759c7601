import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_BASE_NAMES, MAX_WEBHOOKS_PER_INTEGRATION } from '../../src/sandbox/index.js';
import {
  AUTHENTICATION_REQUIRED,
  CONFIDENTIAL,
  MODEL_NOT_FOUND,
  PUBLIC,
  createUser,
  createUserBase,
  oauthTokens,
  tokenCall,
} from './oauth-harness.js';
import { baseIdByName, startSandbox, type SandboxHarness } from './sandbox-harness.js';
import { hooksPath } from './webhook-harness.js';

let harness: SandboxHarness;
afterEach(() => harness.close());

async function setUp(options: Parameters<typeof startSandbox>[0] = {}) {
  harness = await startSandbox({ oauth: { clients: [CONFIDENTIAL, PUBLIC] }, ...options });
  const ada = await createUser(harness, 'ada@example.com');
  const crm = await createUserBase(harness, ada.id, 'Ada CRM');
  return { ada, crm, table: crm.tables[0]! };
}

const TABLE_DATA = { specification: { options: { filters: { dataTypes: ['tableData'] } } } };
const TABLE_FIELDS = { specification: { options: { filters: { dataTypes: ['tableFields'] } } } };

describe('scopes', () => {
  it('refuses each route without its scope with 403 INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND', async () => {
    const { ada, crm, table } = await setUp();
    const reader = await oauthTokens(harness, { userId: ada.id, baseIds: [crm.id], scopes: 'data.records:read schema.bases:read' });
    const token = reader.access_token;
    const expectRefused = async (method: string, path: string, body?: unknown) => {
      const answer = await harness.call(method, path, { token, body });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body).toEqual(MODEL_NOT_FOUND);
    };

    expect((await harness.call('GET', `/v0/${crm.id}/${table.id}`, { token })).status).toBe(200);
    expect((await harness.call('POST', `/v0/${crm.id}/${table.id}/listRecords`, { token, body: {} })).status).toBe(200);
    expect((await harness.call('GET', `/v0/meta/bases/${crm.id}/tables`, { token })).status).toBe(200);
    await expectRefused('POST', `/v0/${crm.id}/${table.id}`, { fields: { Name: 'x' } });
    await expectRefused('PATCH', `/v0/${crm.id}/${table.id}`, { records: [] });
    await expectRefused('DELETE', `/v0/${crm.id}/${table.id}?records[]=recAAAAAAAAAAAAAA`);
    await expectRefused('POST', `/v0/meta/bases/${crm.id}/tables`, { name: 'T', fields: [{ name: 'Name', type: 'singleLineText' }] });
    await expectRefused('POST', `/v0/meta/bases/${crm.id}/tables/${table.id}/fields`, { name: 'F', type: 'singleLineText' });
    await expectRefused('GET', hooksPath(crm.id));
    await expectRefused('POST', hooksPath(crm.id), TABLE_DATA);

    const writer = await oauthTokens(harness, { userId: ada.id, baseIds: [crm.id], scopes: 'data.records:write' });
    const created = await harness.call('POST', `/v0/${crm.id}/${table.id}`, {
      token: writer.access_token,
      body: { fields: { Name: 'x' } },
    });
    expect(created.status).toBe(200);
    expect((await harness.call('GET', `/v0/${crm.id}/${table.id}`, { token: writer.access_token })).status).toBe(403);
    expect((await harness.call('GET', '/v0/meta/bases', { token: writer.access_token })).status).toBe(403);
    expect((await harness.call('GET', '/v0/meta/whoami', { token: writer.access_token })).status).toBe(200);
  });

  it('needs the data types’ scopes to create a webhook and to read its payloads', async () => {
    const { ada, crm } = await setUp();
    const manageOnly = await oauthTokens(harness, { userId: ada.id, baseIds: [crm.id], scopes: 'webhook:manage data.records:read' });
    const token = manageOnly.access_token;
    expect((await harness.call('POST', hooksPath(crm.id), { token, body: TABLE_DATA })).status).toBe(200);
    const refused = await harness.call('POST', hooksPath(crm.id), { token, body: TABLE_FIELDS });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(MODEL_NOT_FOUND);
    const hooks = await harness.call<{ webhooks: Array<{ id: string }> }>('GET', hooksPath(crm.id), { token });
    expect(hooks.body.webhooks).toHaveLength(1);
    expect((await harness.call('GET', `${hooksPath(crm.id, hooks.body.webhooks[0]!.id)}/payloads`, { token })).status).toBe(200);
  });
});

describe('webhook ownership', () => {
  it('lets an integration see only its own webhooks, at most 2 per base; PATs see their user’s PAT webhooks', async () => {
    const { ada, crm } = await setUp();
    const scopes = 'webhook:manage data.records:read';
    const first = (await oauthTokens(harness, { userId: ada.id, baseIds: [crm.id], scopes })).access_token;
    const other = (await oauthTokens(harness, { userId: ada.id, baseIds: [crm.id], scopes, client: PUBLIC })).access_token;
    const create = (token: string) => harness.call<{ id: string }>('POST', hooksPath(crm.id), { token, body: TABLE_DATA });
    const listed = async (token: string) =>
      (await harness.call<{ webhooks: Array<{ id: string }> }>('GET', hooksPath(crm.id), { token })).body.webhooks.map((hook) => hook.id);

    const mine = [(await create(first)).body.id, (await create(first)).body.id];
    expect(MAX_WEBHOOKS_PER_INTEGRATION).toBe(2);
    const third = await create(first);
    expect(third.status).toBe(422);
    expect(third.body).toEqual({ error: { type: 'TOO_MANY_WEBHOOKS_BY_OAUTH_INTEGRATION_IN_BASE', message: expect.any(String) } });

    // Another grant of the same integration and user is the same owner.
    const again = (await oauthTokens(harness, { userId: ada.id, baseIds: [crm.id], scopes })).access_token;
    expect(await listed(again)).toEqual(mine);

    expect(await listed(other)).toEqual([]);
    const theirs = (await create(other)).body.id;
    expect(await listed(other)).toEqual([theirs]);
    expect(await listed(first)).toEqual(mine);
    const foreign = await harness.call('DELETE', hooksPath(crm.id, mine[0]), { token: other });
    expect(foreign.status).toBe(404);
    expect((await harness.call('POST', `${hooksPath(crm.id, mine[0])}/refresh`, { token: other })).status).toBe(404);
    expect((await harness.call('GET', `${hooksPath(crm.id, mine[0])}/payloads`, { token: other })).status).toBe(404);

    expect(await listed(ada.token)).toEqual([]);
    const byPat = (await create(ada.token)).body.id;
    const secondPat = await harness.call<{ token: string }>('POST', `/_control/users/${ada.id}/tokens`, { body: {} });
    expect(await listed(secondPat.body.token)).toEqual([byPat]);
    expect(await listed(first)).toEqual(mine);

    expect((await harness.call('DELETE', hooksPath(crm.id, mine[0]), { token: first })).status).toBe(200);
    expect((await create(first)).status).toBe(200);
  });

  it('keeps the 10-per-base limit over all owners', async () => {
    const { ada, crm } = await setUp();
    for (let hook = 0; hook < 10; hook++)
      expect((await harness.call('POST', hooksPath(crm.id), { token: ada.token, body: TABLE_DATA })).status).toBe(200);
    const integration = (await oauthTokens(harness, { userId: ada.id, baseIds: [crm.id], scopes: 'webhook:manage data.records:read' }))
      .access_token;
    const refused = await harness.call('POST', hooksPath(crm.id), { token: integration, body: TABLE_DATA });
    expect(refused.status).toBe(422);
    expect(refused.body.error.type).toBe('TOO_MANY_WEBHOOKS_IN_BASE');
  });
});

describe('per-user rate limit', () => {
  it('refuses a user’s 51st request within a second across all their tokens and bases; others are unaffected', async () => {
    const { ada, crm, table } = await setUp({ lockoutMs: 400 });
    const second = await createUserBase(harness, ada.id, 'Ada Two');
    const oauth = (await oauthTokens(harness, { userId: ada.id, baseIds: 'all', scopes: 'data.records:read' })).access_token;
    const bob = await createUser(harness, 'bob@example.com');
    // All at once, so the test does not depend on how fast requests follow each other.
    const statuses = await Promise.all(
      Array.from({ length: 51 }, async (_, request) => {
        const token = request % 2 === 0 ? ada.token : oauth;
        const path = request % 3 === 0 ? `/v0/${second.id}/Table 1` : `/v0/${crm.id}/${table.id}`;
        return (await harness.call('GET', `${path}?pageSize=1`, { token })).status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
    const locked = await harness.call('GET', '/v0/meta/whoami', { token: oauth });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ error: { type: 'RATE_LIMIT_REACHED', message: 'Rate limit exceeded. Please try again later' } });
    expect((await harness.call('GET', '/v0/meta/whoami', { token: bob.token })).status).toBe(200);
    const catalog = baseIdByName(harness.sandbox, DEMO_BASE_NAMES.catalog);
    expect((await harness.call('GET', `/v0/${catalog}/Products?pageSize=1`)).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await harness.call('GET', '/v0/meta/whoami', { token: ada.token })).status).toBe(200);
  });

  it('is set by userRateLimitPerSecond (0 = off), at start or through _control/faults', async () => {
    const { ada } = await setUp({ userRateLimitPerSecond: 3 });
    const statuses: number[] = [];
    for (let request = 0; request < 4; request++)
      statuses.push((await harness.call('GET', '/v0/meta/whoami', { token: ada.token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await harness.call('DELETE', '/_control/faults');
    await harness.call('PUT', '/_control/faults', { body: { userRateLimitPerSecond: 0 } });
    for (let request = 0; request < 60; request++)
      expect((await harness.call('GET', '/v0/meta/whoami', { token: ada.token })).status).toBe(200);
  });
});

describe('_control/tokens', () => {
  const refresh = (refreshToken: string) =>
    tokenCall<Record<string, string>>(
      harness,
      { grant_type: 'refresh_token', refresh_token: refreshToken },
      { basic: [CONFIDENTIAL.clientId, CONFIDENTIAL.clientSecret] },
    );
  const status = async (token: string) => (await harness.call('GET', '/v0/meta/whoami', { token })).status;

  it('expires an access token (the refresh token still works), every access token of a user, or a PAT', async () => {
    const { ada } = await setUp();
    const first = await oauthTokens(harness, { userId: ada.id, baseIds: 'all', scopes: 'data.records:read' });
    const second = await oauthTokens(harness, { userId: ada.id, baseIds: 'all', scopes: 'data.records:read', client: PUBLIC });

    expect((await harness.call('POST', '/_control/tokens/expire', { body: { token: first.access_token } })).body).toEqual({ expired: 1 });
    expect(await status(first.access_token)).toBe(401);
    expect((await harness.call('GET', '/v0/meta/whoami', { token: first.access_token })).body).toEqual(AUTHENTICATION_REQUIRED);
    expect(await status(second.access_token)).toBe(200);
    const renewed = await refresh(first.refresh_token);
    expect(renewed.status).toBe(200);

    expect((await harness.call('POST', '/_control/tokens/expire', { body: { userId: ada.id } })).body).toEqual({ expired: 2 });
    expect(await status(renewed.body.access_token!)).toBe(401);
    expect(await status(second.access_token)).toBe(401);
    expect(await status(ada.token)).toBe(200);

    expect((await harness.call('POST', '/_control/tokens/expire', { body: { token: renewed.body.refresh_token } })).body).toEqual({
      expired: 1,
    });
    expect((await refresh(renewed.body.refresh_token!)).body).toMatchObject({ error: 'invalid_grant' });

    expect((await harness.call('POST', '/_control/tokens/expire', { body: { token: ada.token } })).body).toEqual({ expired: 1 });
    expect(await status(ada.token)).toBe(401);
    expect((await harness.call('POST', '/_control/tokens/expire', { body: { token: 'nothing-like-a-token' } })).body).toEqual({
      expired: 0,
    });
  });

  it('revokes a grant by either of its tokens, a PAT, or everything of a user; never the admin token', async () => {
    const { ada } = await setUp();
    const bob = await createUser(harness, 'bob@example.com');
    const first = await oauthTokens(harness, { userId: ada.id, baseIds: 'all', scopes: 'data.records:read' });
    expect((await harness.call('POST', '/_control/tokens/revoke', { body: { token: first.refresh_token } })).body).toEqual({ revoked: 1 });
    expect(await status(first.access_token)).toBe(401);
    expect((await refresh(first.refresh_token)).body).toMatchObject({ error: 'invalid_grant' });

    const second = await oauthTokens(harness, { userId: ada.id, baseIds: 'all', scopes: 'data.records:read' });
    const third = await oauthTokens(harness, { userId: ada.id, baseIds: 'all', scopes: 'data.records:read', client: PUBLIC });
    const bobs = await oauthTokens(harness, { userId: bob.id, baseIds: 'all', scopes: 'data.records:read' });
    expect((await harness.call('POST', '/_control/tokens/revoke', { body: { userId: ada.id } })).body).toEqual({ revoked: 3 });
    for (const token of [second.access_token, third.access_token, ada.token]) expect(await status(token)).toBe(401);
    expect(await status(bobs.access_token)).toBe(200);
    expect(await status(bob.token)).toBe(200);

    const admin = await harness.call('POST', '/_control/tokens/revoke', { body: { token: 'sandbox-test-token' } });
    expect(admin.status).toBe(400);
    expect((await harness.call('POST', '/_control/tokens/revoke', { body: { token: 'unknown' } })).body).toEqual({ revoked: 0 });
    expect((await harness.call('POST', '/_control/tokens/revoke', { body: { userId: 'usrNoSuchUser0000' } })).status).toBe(404);
    expect((await harness.call('POST', '/_control/tokens/revoke', { body: { token: 'x', userId: ada.id } })).status).toBe(400);
    expect(await status('sandbox-test-token')).toBe(200);
  });
});
