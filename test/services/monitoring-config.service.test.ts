import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { CHANGES_TABLE_FIELDS } from '../../src/services/audit/changes-table.js';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { MonitoringConfigService } from '../../src/services/monitoring-config.service.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed, refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** Monitoring configs' rules (MonitoringConfigService), without HTTP. The transport: test/integration/monitoring-configs.test.ts. */

let t: TestServices;
let catalog: string;
let marketing: string;
let changeLog: string;

beforeAll(async () => {
  t = await startTestServices();
  t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  [catalog, marketing, changeLog] = [DEMO_BASES.catalog, DEMO_BASES.marketing, DEMO_BASES.changeLog].map((name) => t.baseId(name));
});
afterAll(() => t?.close());

const configs = () => t.services.monitoringConfigs;
/** Create, its input parsed by the route's own schema. */
const create = (input: Record<string, unknown>, accountId = t.accountId) =>
  configs().create(accountId, parsed(monitoringConfigInput.create, input));
const update = (id: string, input: Record<string, unknown>, accountId = t.accountId) =>
  configs().update(accountId, id, parsed(monitoringConfigInput.update, input));
const hooksOf = (baseId: string) => t.services.upstream.listWebhooks(baseId);
const tablesOf = (baseId: string) => t.sandbox.store.getBase(baseId)!.tables;

describe('MonitoringConfigService', () => {
  let account: string;
  beforeAll(async () => {
    account = (await t.newAccount('configs')).accountId;
  });

  it('creates a config with a new Changes table (one column per entry field) and one upstream webhook', async () => {
    const config = await create(
      { baseId: catalog, monitoringBaseId: changeLog, scope: 'schema_only', timezone: 'europe/berlin', workspaceId: 'wspAAAAAAAAAAAAAA' },
      account,
    );
    expect(config).toMatchObject({
      baseId: catalog,
      baseName: DEMO_BASES.catalog,
      workspaceId: 'wspAAAAAAAAAAAAAA',
      monitoringBaseId: changeLog,
      monitoringBaseName: DEMO_BASES.changeLog,
      monitoringTableName: 'Changes',
      scope: 'schema_only',
      timezone: 'Europe/Berlin',
    });
    const table = tablesOf(changeLog).find((candidate) => candidate.id === config.monitoringTableId)!;
    expect(table.fields.map((f) => f.name)).toEqual(CHANGES_TABLE_FIELDS.map((f) => f.name));
    expect(await hooksOf(catalog)).toHaveLength(1);

    expect(await configs().get(account, config.id)).toEqual(config);
    expect(await configs().list(account)).toEqual([config]);
  });

  it('reuses the watch for a second config of the same base, adds missing columns to a given table, conflict on the same table', async () => {
    const own = t.sandbox.store.createTable(changeLog, { name: 'My Log', fields: [{ name: 'Entry ID', type: 'singleLineText' }] });
    const config = await create({ baseId: catalog, monitoringBaseId: changeLog, monitoringTableId: own.id }, account);
    expect(config).toMatchObject({
      monitoringTableId: own.id,
      monitoringTableName: 'My Log',
      scope: 'all',
      timezone: 'UTC',
      workspaceId: '',
    });
    const table = tablesOf(changeLog).find((candidate) => candidate.id === own.id)!;
    expect(table.fields.map((f) => f.name).sort()).toEqual(CHANGES_TABLE_FIELDS.map((f) => f.name).sort());
    expect(await hooksOf(catalog)).toHaveLength(1);

    expect(await refusal(() => create({ baseId: catalog, monitoringBaseId: changeLog, monitoringTableId: own.id }, account))).toBe(
      'conflict',
    );
  });

  it('is not_found for a base the connection does not see, either of the two', async () => {
    for (const input of [
      { baseId: 'appAAAAAAAAAAAAAA', monitoringBaseId: changeLog },
      { baseId: catalog, monitoringBaseId: 'appAAAAAAAAAAAAAA' },
    ]) {
      expect(await refusal(() => create(input, account)), JSON.stringify(input)).toBe('not_found');
    }
  });

  it('refuses unknown tables, bad fields and unknown fields as invalid_request', async () => {
    const cases = [
      { baseId: catalog, monitoringBaseId: changeLog, monitoringTableId: 'tblAAAAAAAAAAAAAA' },
      { baseId: catalog, monitoringBaseId: changeLog, scope: 'everything' },
      { baseId: catalog, monitoringBaseId: changeLog, timezone: 'Mars/Olympus' },
      { baseId: catalog, monitoringBaseId: changeLog, extra: true },
      { baseId: 'Acme', monitoringBaseId: changeLog },
      { monitoringBaseId: changeLog },
    ];
    for (const input of cases) expect(await refusal(() => create(input, account)), JSON.stringify(input)).toBe('invalid_request');
  });

  it('update changes scope and timezone; an empty object changes nothing; bad values are refused', async () => {
    const config = await create({ baseId: marketing, monitoringBaseId: changeLog }, account);
    expect(await update(config.id, {}, account)).toEqual(config);
    const patched = await update(config.id, { scope: 'records_only', timezone: 'America/New_York' }, account);
    expect(patched).toMatchObject({
      ...config,
      scope: 'records_only',
      timezone: 'America/New_York',
      updatedAt: expect.any(Date),
    });
    expect(patched.updatedAt.getTime()).toBeGreaterThanOrEqual(config.updatedAt.getTime());
    for (const input of [{ scope: 'none' }, { timezone: 'Nowhere/City' }, { baseId: catalog }]) {
      expect(await refusal(() => update(config.id, input, account)), JSON.stringify(input)).toBe('invalid_request');
    }
  });

  it('isolates accounts: another account gets not_found for every operation on a config', async () => {
    const [config] = await configs().list(account);
    expect(config).toBeDefined();
    const other = t.other.accountId;
    expect(await configs().list(other)).toEqual([]);
    expect(await refusal(() => configs().get(other, config!.id))).toBe('not_found');
    expect(await refusal(() => update(config!.id, { scope: 'all' }, other))).toBe('not_found');
    expect(await refusal(() => configs().remove(other, config!.id))).toBe('not_found');
    expect(await refusal(() => configs().logTarget(other, config!.id))).toBe('not_found');
    expect(await refusal(() => configs().get(account, 'not-a-uuid'))).toBe('not_found');
  });

  it('deletes the upstream webhook only with the last config of a base', async () => {
    const ofCatalog = (await configs().list(account)).filter((c) => c.baseId === catalog);
    expect(ofCatalog).toHaveLength(2);
    await configs().remove(account, ofCatalog[0]!.id);
    expect(await hooksOf(catalog)).toHaveLength(1);
    await configs().remove(account, ofCatalog[1]!.id);
    expect(await hooksOf(catalog)).toHaveLength(0);
    expect(await refusal(() => configs().get(account, ofCatalog[1]!.id))).toBe('not_found');
    expect(await t.services.watches.find({ baseId: catalog })).toBeNull();
  });
});

/** The tables of a base that creates made ("Changes", "Changes 2" …). */
const changesTables = (baseId: string) =>
  tablesOf(baseId)
    .filter((table) => /^Changes( \d+)?$/.test(table.name))
    .map((table) => table.id);

/** The monitoring-config service of another process on the same database (its own in-process serialisation). */
function anotherProcess(): MonitoringConfigService {
  const { dataSource, upstreamAccess, watches } = t.services;
  return new MonitoringConfigService(dataSource, upstreamAccess, watches, createLogger('silent'), { monitoringConfigsPerAccount: 50 });
}

const conflictMessage = (reason: unknown) => {
  expect(reason).toBeInstanceOf(AppError);
  expect((reason as AppError).code).toBe('conflict');
  return (reason as AppError).message;
};

describe('an identical monitoring config', () => {
  it('is refused with the existing config’s id, and no second Changes table is made upstream', async () => {
    const { accountId } = await t.newAccount('identical');
    const first = await configs().create(accountId, { baseId: catalog, monitoringBaseId: changeLog });
    const tables = changesTables(changeLog);
    for (const input of [
      { baseId: catalog, monitoringBaseId: changeLog },
      { baseId: catalog, monitoringBaseId: changeLog, scope: 'all' as const, timezone: 'Europe/Berlin' },
      { baseId: catalog, monitoringBaseId: changeLog, scope: 'schema_only' as const, monitoringTableId: first.monitoringTableId },
    ]) {
      const refused = await configs()
        .create(accountId, input)
        .catch((error: unknown) => error);
      expect(conflictMessage(refused), JSON.stringify(input)).toContain(`by monitoring config ${first.id}`);
    }
    expect(changesTables(changeLog)).toEqual(tables);
    expect(await configs().list(accountId)).toHaveLength(1);
    // Another scope logs other rows: a table of its own.
    await expect(
      configs().create(accountId, { baseId: catalog, monitoringBaseId: changeLog, scope: 'schema_only' }),
    ).resolves.toBeDefined();
    // Another account logs the same bases as it likes.
    const other = await t.newAccount('identical, elsewhere');
    await expect(configs().create(other.accountId, { baseId: catalog, monitoringBaseId: changeLog })).resolves.toBeDefined();
  });

  it('made ten times at once in one process: one config, one table, nine refusals naming it', async () => {
    const { accountId } = await t.newAccount('burst');
    const before = changesTables(marketing);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => configs().create(accountId, { baseId: catalog, monitoringBaseId: marketing })),
    );
    const made = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(made).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(conflictMessage(result.reason)).toContain(made[0]!.id);
    }
    expect(changesTables(marketing)).toHaveLength(before.length + 1);
  });

  it('made at once by two processes: one of them makes the table, the other is refused', async () => {
    const { accountId } = await t.newAccount('two processes');
    const processes = [configs(), anotherProcess()];
    const before = changesTables(catalog);
    const results = await Promise.allSettled(
      processes.map((service) => service.create(accountId, { baseId: marketing, monitoringBaseId: catalog })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(conflictMessage(refused.reason)).toMatch(/being created already|by monitoring config/);
    expect(changesTables(catalog)).toHaveLength(before.length + 1);
    expect(await configs().list(accountId)).toHaveLength(1);
    // The claim is released: once the first is deleted, the same create works again.
    await configs().remove(accountId, (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ id: string }>).value.id);
    await expect(processes[1]!.create(accountId, { baseId: marketing, monitoringBaseId: catalog })).resolves.toBeDefined();
  });
});
