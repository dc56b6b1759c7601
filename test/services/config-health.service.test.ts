import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringConfig } from '../../src/entities/index.js';
import { healthOf } from '../../src/services/audit/config-health.service.js';
import { DEMO_BASES } from '../support/factories.js';
import { refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';
import { allChanges, logCatalogSuppliers, runPipeline } from './audit-flow.js';

/**
 * A config's health (ConfigHealthService, recorded by ChangeWriterService and the upkeep), without HTTP. The status
 * route and GraphQL's health field: test/audit/config-status.test.ts.
 */
describe('monitoring config health', () => {
  let t: TestServices;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    // A long first retry, so that what the writer does while it waits can be seen.
    t = await startTestServices(
      { LOG_LEVEL: 'info', AUDIT_WRITE_RETRY_BASE_MS: '20000', AUDIT_WRITE_MAX_RETRY_MS: '60000' },
      { logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
    );
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  });
  afterAll(() => t?.close());

  const health = async (configId: string) => healthOf(await t.services.monitoringConfigs.get(t.accountId, configId));

  it('is changes_table_missing once the Changes table is deleted upstream, and the writer stops knocking', async () => {
    const { baseId, monitoringBaseId, config, configId, tableId, primaryName } = await logCatalogSuppliers(t);
    expect(await health(configId)).toEqual({ state: 'ok', lastError: null, checkedAt: expect.any(Date) });
    t.sandbox.store.createRecords(baseId, tableId, [{ [primaryName]: 'Before the deletion' }]);
    await runPipeline(t);
    const before = await allChanges(t, configId);
    expect(before).toHaveLength(1);
    expect(before[0]!.monitoringRecordId).not.toBeNull();

    const { monitoringTableId } = config;
    t.sandbox.store.deleteTable(monitoringBaseId, monitoringTableId);
    t.sandbox.store.createRecords(baseId, tableId, [{ [primaryName]: 'After the deletion' }]);
    await runPipeline(t);
    expect(await health(configId)).toEqual({
      state: 'changes_table_missing',
      lastError: `The Changes table ${monitoringTableId} (Changes) is gone from base ${monitoringBaseId}`,
      checkedAt: expect.any(Date),
    });
    expect(await refusal(() => t.services.monitoringConfigs.get(t.other.accountId, configId))).toBe('not_found');

    // Changes logged while the table is missing wait for the config's next retry: no write per change.
    const writes = () => t.sandbox.stats.recent.filter((r) => r.method === 'POST' && r.path.endsWith(`/${monitoringTableId}`)).length;
    const writesBefore = writes();
    for (const name of ['Held 1', 'Held 2', 'Held 3']) {
      const logged = (await allChanges(t, configId)).length;
      t.sandbox.store.createRecords(baseId, tableId, [{ [primaryName]: name }]);
      await runPipeline(t);
      expect((await allChanges(t, configId)).length).toBeGreaterThan(logged);
    }
    expect(writes()).toBe(writesBefore);
    expect((await allChanges(t, configId)).filter((r) => r.monitoringRecordId === null)).toHaveLength(4);
    // One warning for the change of state, not one per failed write.
    const warnings = lines.filter((l) => l.configId === configId && l.level === 40);
    expect(warnings.map((l) => l.msg)).toEqual(['monitoring config: changes table missing']);
    expect(await health(configId)).toMatchObject({ state: 'changes_table_missing' });
  });

  it('the upkeep finds a monitored base that is gone, and the config whole again', async () => {
    const marketing = t.baseId(DEMO_BASES.marketing);
    const changeLog = t.baseId(DEMO_BASES.changeLog);
    const { id: configId } = await t.services.monitoringConfigs.create(t.accountId, { baseId: marketing, monitoringBaseId: changeLog });
    const configs = t.dataSource.getRepository(MonitoringConfig);
    // A base the upstream does not know stands in for one deleted there (the sandbox cannot delete bases).
    await configs.update({ id: configId }, { baseId: 'appGoneGoneGone00' });
    await t.services.configHealth.checkAll();
    // A base the connection does not see is not_found on the config's own operations (CONTRACT §8); the list has
    // the config, lost, with what the upkeep found.
    expect(await refusal(() => t.services.monitoringConfigs.get(t.accountId, configId))).toBe('not_found');
    const listed = (await t.services.monitoringConfigs.list(t.accountId)).find((c) => c.id === configId)!;
    expect(await t.services.monitoringConfigs.lostAmong(t.accountId, [listed])).toEqual(new Set([configId]));
    expect(healthOf(listed)).toEqual({
      state: 'monitored_base_missing',
      lastError: `The monitored base appGoneGoneGone00 (${DEMO_BASES.marketing}) is gone upstream or no longer shared with the token`,
      checkedAt: expect.any(Date),
    });
    await configs.update({ id: configId }, { baseId: marketing });
    await t.services.configHealth.checkAll();
    expect(await health(configId)).toMatchObject({ state: 'ok', lastError: null });
  });
});
