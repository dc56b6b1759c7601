import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { AccountService } from '../../src/services/account.service.js';
import { createGraphql } from '../graphql/support/graphql-client.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const HOOK_URL = 'http://127.0.0.1:65000/hook';

let app: TestApp;
let catalog: string;
let marketing: string;
let changeLog: string;

beforeAll(async () => {
  app = await startTestApp({
    MAX_API_KEYS_PER_ACCOUNT: '3',
    MAX_WEBHOOKS_PER_BASE: '2',
    MAX_TRACKED_BASES_PER_ACCOUNT: '2',
    MAX_MONITORING_CONFIGS_PER_ACCOUNT: '2',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:65000',
  });
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  [catalog, marketing, changeLog] = await Promise.all(
    [DEMO_BASES.catalog, DEMO_BASES.marketing, DEMO_BASES.changeLog].map((name) => upstreamBaseId(app.http, name)),
  );
});
afterAll(() => app?.close());

const services = () => app.running.services;

/** The refusal a quota gives: 409 conflict, naming the limit and the variable that sets it. */
async function refusedByQuota(work: Promise<unknown>, limit: number, variable: string): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const refusal = error as AppError;
  expect({ code: refusal.code, status: refusal.status }).toEqual({ code: 'conflict', status: 409 });
  expect(refusal.message).toContain(`quota of ${limit} `);
  expect(refusal.message).toContain(variable);
  return refusal;
}

const changesTables = async (baseId: string) =>
  (await sandboxApi(app.url).schema(baseId)).filter((table) => /^Changes( \d+)?$/.test(table.name)).map((table) => table.id);

describe('API keys per account (MAX_API_KEYS_PER_ACCOUNT)', () => {
  it('refuses a key past the quota of working keys; a revoked key frees its place; other accounts are not affected', async () => {
    const { accountId } = await app.newAccount('keys');
    const accounts = services().accounts;
    await accounts.createKey(accountId, 'second');
    const third = await accounts.createKey(accountId, 'third');
    await refusedByQuota(accounts.createKey(accountId, 'fourth'), 3, 'MAX_API_KEYS_PER_ACCOUNT');
    expect(await accounts.activeKeys(accountId)).toHaveLength(3);

    await accounts.revokeAccountKey(accountId, third.key.id);
    await accounts.createKey(accountId, 'instead');
    expect(await accounts.activeKeys(accountId)).toHaveLength(3);
    const other = await app.newAccount('other keys');
    await expect(accounts.createKey(other.accountId, 'theirs')).resolves.toBeDefined();
  });

  it('holds under concurrency: of twenty creates at once, exactly those that fit are made', async () => {
    const { accountId } = await app.newAccount('racing keys');
    const accounts = services().accounts;
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => accounts.createKey(accountId, `key ${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(await accounts.activeKeys(accountId)).toHaveLength(3);
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as AppError).code] : []));
    expect(refusals).toEqual(Array(18).fill('conflict'));
  });

  it('is never exceeded by creates racing in several processes (each with its own service)', async () => {
    const { accountId } = await app.newAccount('keys in two processes');
    const processes = [services().accounts, new AccountService(app.running.dataSource, { apiKeysPerAccount: 3 })];
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => processes[i % 2]!.createKey(accountId, `key ${i}`)));
    const made = results.filter((r) => r.status === 'fulfilled').length;
    expect(await services().accounts.activeKeys(accountId)).toHaveLength(1 + made);
    expect(1 + made).toBeLessThanOrEqual(3);
  });
});

describe('webhooks per base (MAX_WEBHOOKS_PER_BASE)', () => {
  it('refuses a webhook past the quota on one base, not on another; a deleted one frees its place', async () => {
    const { accountId } = await app.newAccount('webhooks');
    const webhooks = services().webhooks;
    const create = (baseId: string) => webhooks.create(accountId, { baseId, event: 'table_create', webhookUrl: HOOK_URL });
    const first = await create(catalog);
    await create(catalog);
    const refusal = await refusedByQuota(create(catalog), 2, 'MAX_WEBHOOKS_PER_BASE');
    expect(refusal.message).toContain(catalog);
    expect(await webhooks.list(accountId, catalog)).toHaveLength(2);
    await expect(create(marketing)).resolves.toBeDefined();

    await webhooks.remove(accountId, first.webhook.id);
    await expect(create(catalog)).resolves.toBeDefined();
    expect(await webhooks.list(accountId, catalog)).toHaveLength(2);
  });
});

describe('tracked bases per account (MAX_TRACKED_BASES_PER_ACCOUNT)', () => {
  it('refuses a third tracked base, and says so through REST as 409 conflict', async () => {
    const account = await app.newAccount('tracked bases');
    const usageBases = services().usageBases;
    await usageBases.create(account.accountId, { baseId: catalog });
    await usageBases.create(account.accountId, { baseId: marketing });
    await refusedByQuota(usageBases.create(account.accountId, { baseId: changeLog }), 2, 'MAX_TRACKED_BASES_PER_ACCOUNT');
    expect(await usageBases.list(account.accountId)).toHaveLength(2);

    const res = await account.http('POST', '/usage/bases', { body: { baseId: changeLog } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'conflict', message: expect.stringContaining('MAX_TRACKED_BASES_PER_ACCOUNT') });
  });
});

describe('monitoring configs per account (MAX_MONITORING_CONFIGS_PER_ACCOUNT)', () => {
  it('refuses a third config before making anything upstream', async () => {
    const { accountId } = await app.newAccount('configs');
    const configs = services().monitoringConfigs;
    await configs.create(accountId, { baseId: catalog, monitoringBaseId: changeLog });
    await configs.create(accountId, { baseId: marketing, monitoringBaseId: changeLog });
    const tables = await changesTables(catalog);
    await refusedByQuota(
      configs.create(accountId, { baseId: changeLog, monitoringBaseId: catalog }),
      2,
      'MAX_MONITORING_CONFIGS_PER_ACCOUNT',
    );
    expect(await configs.list(accountId)).toHaveLength(2);
    expect(await changesTables(catalog)).toEqual(tables);
  });
});

describe('the same rule through GraphQL', () => {
  it('answers createApiKey past the quota with extensions.code conflict', async () => {
    const account = await app.newAccount('graphql keys');
    await services().accounts.createKey(account.accountId, 'second');
    await services().accounts.createKey(account.accountId, 'third');
    const graphql = createGraphql(app.url, account.apiKey);
    const res = await graphql('mutation { createApiKey(input: { name: "fourth" }) { key } }');
    expect(res.errors?.map((e) => e.extensions?.code)).toEqual(['conflict']);
    expect(res.errors?.[0]?.message).toContain('MAX_API_KEYS_PER_ACCOUNT');
  });
});
