import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { MonitoringConfigService } from '../../src/services/monitoring-config.service.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
let catalog: string;
let marketing: string;
let changeLog: string;

beforeAll(async () => {
  app = await startTestApp();
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  [catalog, marketing, changeLog] = await Promise.all(
    [DEMO_BASES.catalog, DEMO_BASES.marketing, DEMO_BASES.changeLog].map((name) => upstreamBaseId(app.http, name)),
  );
});
afterAll(() => app?.close());

/** The tables of a base that creates made ("Changes", "Changes 2" …). */
const changesTables = async (baseId: string) =>
  (await sandboxApi(app.url).schema(baseId)).filter((table) => /^Changes( \d+)?$/.test(table.name)).map((table) => table.id);

/** The monitoring-config service of another process on the same database (its own in-process serialisation). */
function anotherProcess(): MonitoringConfigService {
  const { dataSource, upstreamAccess, watches } = app.running.services;
  return new MonitoringConfigService(dataSource, upstreamAccess, watches, createLogger('silent'), { monitoringConfigsPerAccount: 50 });
}

const conflictMessage = (reason: unknown) => {
  expect(reason).toBeInstanceOf(AppError);
  expect((reason as AppError).code).toBe('conflict');
  return (reason as AppError).message;
};

describe('an identical monitoring config', () => {
  it('is refused with the existing config’s id, and no second Changes table is made upstream', async () => {
    const { accountId } = await app.newAccount('identical');
    const configs = app.running.services.monitoringConfigs;
    const first = await configs.create(accountId, { baseId: catalog, monitoringBaseId: changeLog });
    const tables = await changesTables(changeLog);
    for (const input of [
      { baseId: catalog, monitoringBaseId: changeLog },
      { baseId: catalog, monitoringBaseId: changeLog, scope: 'all' as const, timezone: 'Europe/Berlin' },
      { baseId: catalog, monitoringBaseId: changeLog, scope: 'schema_only' as const, monitoringTableId: first.monitoringTableId },
    ]) {
      const refusal = await configs.create(accountId, input).catch((error: unknown) => error);
      expect(conflictMessage(refusal), JSON.stringify(input)).toContain(`by monitoring config ${first.id}`);
    }
    expect(await changesTables(changeLog)).toEqual(tables);
    expect(await configs.list(accountId)).toHaveLength(1);
    // Another scope logs other rows: a table of its own.
    await expect(configs.create(accountId, { baseId: catalog, monitoringBaseId: changeLog, scope: 'schema_only' })).resolves.toBeDefined();
    // Another account logs the same bases as it likes.
    const other = await app.newAccount('identical, elsewhere');
    await expect(configs.create(other.accountId, { baseId: catalog, monitoringBaseId: changeLog })).resolves.toBeDefined();
  });

  it('made ten times at once in one process: one config, one table, nine refusals naming it', async () => {
    const { accountId } = await app.newAccount('burst');
    const configs = app.running.services.monitoringConfigs;
    const before = await changesTables(marketing);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => configs.create(accountId, { baseId: catalog, monitoringBaseId: marketing })),
    );
    const made = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(made).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(conflictMessage(result.reason)).toContain(made[0]!.id);
    }
    expect(await changesTables(marketing)).toHaveLength(before.length + 1);
  });

  it('made at once by two processes: one of them makes the table, the other is refused', async () => {
    const { accountId } = await app.newAccount('two processes');
    const processes = [app.running.services.monitoringConfigs, anotherProcess()];
    const before = await changesTables(catalog);
    const results = await Promise.allSettled(
      processes.map((configs) => configs.create(accountId, { baseId: marketing, monitoringBaseId: catalog })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(conflictMessage(refused.reason)).toMatch(/being created already|by monitoring config/);
    expect(await changesTables(catalog)).toHaveLength(before.length + 1);
    expect(await app.running.services.monitoringConfigs.list(accountId)).toHaveLength(1);
    // The claim is released: once the first is deleted, the same create works again.
    await app.running.services.monitoringConfigs.remove(
      accountId,
      (results.find((r) => r.status === 'fulfilled') as PromiseFulfilledResult<{ id: string }>).value.id,
    );
    await expect(processes[1]!.create(accountId, { baseId: marketing, monitoringBaseId: catalog })).resolves.toBeDefined();
  });
});
