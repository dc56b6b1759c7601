import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { AccountService } from '../../src/services/account.service.js';
import { DEMO_BASES } from '../support/factories.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** The quotas (API keys, webhooks per base, tracked bases, monitoring configs), on the services without HTTP. */

const HOOK_URL = 'http://127.0.0.1:65000/hook';

let t: TestServices;
let catalog: string;
let marketing: string;
let changeLog: string;

beforeAll(async () => {
  t = await startTestServices({
    MAX_API_KEYS_PER_ACCOUNT: '3',
    MAX_WEBHOOKS_PER_BASE: '2',
    MAX_TRACKED_BASES_PER_ACCOUNT: '2',
    MAX_MONITORING_CONFIGS_PER_ACCOUNT: '2',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:65000',
  });
  t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  [catalog, marketing, changeLog] = [DEMO_BASES.catalog, DEMO_BASES.marketing, DEMO_BASES.changeLog].map((name) => t.baseId(name));
});
afterAll(() => t?.close());

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

/** The ids of a base's Changes tables, from the sandbox's store. */
const changesTables = (baseId: string) =>
  t.sandbox.store
    .getBase(baseId)!
    .tables.filter((table) => /^Changes( \d+)?$/.test(table.name))
    .map((table) => table.id);

describe('API keys per account (MAX_API_KEYS_PER_ACCOUNT)', () => {
  it('refuses a key past the quota of working keys; a revoked key frees its place; other accounts are not affected', async () => {
    const { accountId } = await t.newAccount('keys');
    const { accounts } = t.services;
    await accounts.createKey(accountId, 'second');
    const third = await accounts.createKey(accountId, 'third');
    await refusedByQuota(accounts.createKey(accountId, 'fourth'), 3, 'MAX_API_KEYS_PER_ACCOUNT');
    expect(await accounts.activeKeys(accountId)).toHaveLength(3);

    await accounts.revokeAccountKey(accountId, third.key.id);
    await accounts.createKey(accountId, 'instead');
    expect(await accounts.activeKeys(accountId)).toHaveLength(3);
    const other = await t.newAccount('other keys');
    await expect(accounts.createKey(other.accountId, 'theirs')).resolves.toBeDefined();
  });

  it('holds under concurrency: of twenty creates at once, exactly those that fit are made', async () => {
    const { accountId } = await t.newAccount('racing keys');
    const { accounts } = t.services;
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => accounts.createKey(accountId, `key ${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(await accounts.activeKeys(accountId)).toHaveLength(3);
    const refusals = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as AppError).code] : []));
    expect(refusals).toEqual(Array(18).fill('conflict'));
  });

  it('is never exceeded by creates racing in several processes (each with its own service)', async () => {
    const { accountId } = await t.newAccount('keys in two processes');
    const processes = [t.services.accounts, new AccountService(t.dataSource, { apiKeysPerAccount: 3 })];
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => processes[i % 2]!.createKey(accountId, `key ${i}`)));
    const made = results.filter((r) => r.status === 'fulfilled').length;
    expect(await t.services.accounts.activeKeys(accountId)).toHaveLength(1 + made);
    expect(1 + made).toBeLessThanOrEqual(3);
  });
});

describe('webhooks per base (MAX_WEBHOOKS_PER_BASE)', () => {
  it('refuses a webhook past the quota on one base, not on another; a deleted one frees its place', async () => {
    const { accountId } = await t.newAccount('webhooks');
    const { webhooks } = t.services;
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
  it('refuses a third tracked base', async () => {
    const { accountId } = await t.newAccount('tracked bases');
    const { usageBases } = t.services;
    await usageBases.create(accountId, { baseId: catalog });
    await usageBases.create(accountId, { baseId: marketing });
    await refusedByQuota(usageBases.create(accountId, { baseId: changeLog }), 2, 'MAX_TRACKED_BASES_PER_ACCOUNT');
    expect(await usageBases.list(accountId)).toHaveLength(2);
  });
});

describe('monitoring configs per account (MAX_MONITORING_CONFIGS_PER_ACCOUNT)', () => {
  it('refuses a third config before making anything upstream', async () => {
    const { accountId } = await t.newAccount('configs');
    const configs = t.services.monitoringConfigs;
    await configs.create(accountId, { baseId: catalog, monitoringBaseId: changeLog });
    await configs.create(accountId, { baseId: marketing, monitoringBaseId: changeLog });
    const tables = changesTables(catalog);
    await refusedByQuota(
      configs.create(accountId, { baseId: changeLog, monitoringBaseId: catalog }),
      2,
      'MAX_MONITORING_CONFIGS_PER_ACCOUNT',
    );
    expect(await configs.list(accountId)).toHaveLength(2);
    expect(changesTables(catalog)).toEqual(tables);
  });
});
