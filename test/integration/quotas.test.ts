import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphql } from '../graphql/support/graphql-client.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A quota's refusal as the transports answer it. The quotas themselves: test/services/quotas.service.test.ts. */

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ MAX_API_KEYS_PER_ACCOUNT: '3', MAX_TRACKED_BASES_PER_ACCOUNT: '2' });
});
afterAll(() => app?.close());

describe('a quota through REST', () => {
  it('answers a third tracked base with 409 conflict naming the variable', async () => {
    const account = await app.newAccount('tracked bases');
    const [catalog, marketing, changeLog] = await Promise.all(
      [DEMO_BASES.catalog, DEMO_BASES.marketing, DEMO_BASES.changeLog].map((name) => upstreamBaseId(account.http, name)),
    );
    for (const baseId of [catalog, marketing]) expect((await account.http('POST', '/usage/bases', { body: { baseId } })).status).toBe(201);
    const res = await account.http('POST', '/usage/bases', { body: { baseId: changeLog } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'conflict', message: expect.stringContaining('MAX_TRACKED_BASES_PER_ACCOUNT') });
  });
});

describe('the same rule through GraphQL', () => {
  it('answers createApiKey past the quota with extensions.code conflict', async () => {
    const account = await app.newAccount('graphql keys');
    await app.running.services.accounts.createKey(account.accountId, 'second');
    await app.running.services.accounts.createKey(account.accountId, 'third');
    const graphql = createGraphql(app.url, account.apiKey);
    const res = await graphql('mutation { createApiKey(input: { name: "fourth" }) { key } }');
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['conflict']);
    expect(res.errors?.[0]?.message).toContain('MAX_API_KEYS_PER_ACCOUNT');
  });
});
