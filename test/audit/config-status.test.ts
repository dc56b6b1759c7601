import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringConfig } from '../../src/entities/index.js';
import { createGraphql } from '../graphql/support/graphql-client.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { allChanges, AUDIT_APP_ENV, eventually, logCatalogSuppliers, relaxSandboxRateLimit } from './audit-support.js';
import { MONITORING_CONFIG_FIELDS } from '../support/interface-shapes.js';

const HEALTH = `query($id: ID!) { monitoringConfig(id: $id) { health { state lastError checkedAt } } }`;

describe('monitoring config status', () => {
  let app: TestApp;
  let api: SandboxApi;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    // A long first retry, so that what the writer does while it waits can be seen.
    const env = { ...AUDIT_APP_ENV, LOG_LEVEL: 'info', AUDIT_WRITE_RETRY_BASE_MS: '20000', AUDIT_WRITE_MAX_RETRY_MS: '60000' };
    app = await startTestApp(env, { write: (line: string) => void lines.push(JSON.parse(line)) });
    relaxSandboxRateLimit(app);
    api = sandboxApi(app.url);
  });
  afterAll(() => app?.close());

  const status = async (configId: string) => {
    const res = await app.http('GET', `/monitoring-config/${configId}/status`);
    expect(res.status).toBe(200);
    return res.body.status as { state: string; lastError: string | null; checkedAt: string | null };
  };

  it('says changes_table_missing once the Changes table is deleted upstream, through REST and GraphQL, and stops knocking', async () => {
    const { baseId, monitoringBaseId, configId, tableId, primaryName } = await logCatalogSuppliers(app, api);
    expect(await status(configId)).toEqual({ state: 'ok', lastError: null, checkedAt: expect.any(String) });
    await api.createRecords(baseId, tableId, [{ [primaryName]: 'Before the deletion' }]);
    await eventually(
      () => allChanges(app.http, configId),
      (list) => list.length === 1 && list[0]!.monitoringRecordId !== null,
    );

    const { monitoringTableId } = (await app.http('GET', `/monitoring-config/${configId}`)).body.config;
    await api.deleteTable(monitoringBaseId, monitoringTableId);
    await api.createRecords(baseId, tableId, [{ [primaryName]: 'After the deletion' }]);
    const missing = await eventually(
      () => status(configId),
      (s) => s.state === 'changes_table_missing',
    );
    expect(missing).toEqual({
      state: 'changes_table_missing',
      lastError: `The Changes table ${monitoringTableId} (Changes) is gone from base ${monitoringBaseId}`,
      checkedAt: expect.any(String),
    });

    const graphql = await createGraphql(app.url, app.apiKey)(HEALTH, { id: configId });
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.monitoringConfig.health).toEqual({ ...missing, state: 'CHANGES_TABLE_MISSING' });
    // The REST config keeps the interface's shape exactly.
    expect(Object.keys((await app.http('GET', `/monitoring-config/${configId}`)).body.config).sort()).toEqual(MONITORING_CONFIG_FIELDS);
    expect((await app.other.http('GET', `/monitoring-config/${configId}/status`)).status).toBe(404);

    // Changes logged while the table is missing wait for the config's next retry: no write per change.
    const writes = () =>
      app.running.sandbox!.stats.recent.filter((r) => r.method === 'POST' && r.path.endsWith(`/${monitoringTableId}`)).length;
    const writesBefore = writes();
    for (const name of ['Held 1', 'Held 2', 'Held 3']) {
      const logged = (await allChanges(app.http, configId)).length;
      await api.createRecords(baseId, tableId, [{ [primaryName]: name }]);
      await eventually(
        () => allChanges(app.http, configId),
        (list) => list.length > logged,
      );
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(writes()).toBe(writesBefore);
    expect((await allChanges(app.http, configId)).filter((r) => r.monitoringRecordId === null)).toHaveLength(4);
    // One warning for the change of state, not one per failed write.
    const warnings = lines.filter((l) => l.configId === configId && l.level === 40);
    expect(warnings.map((l) => l.msg)).toEqual(['monitoring config: changes table missing']);
    expect(await status(configId)).toMatchObject({ state: 'changes_table_missing' });
  });

  it('the upkeep finds a monitored base that is gone, and the config whole again', async () => {
    const marketing = await upstreamBaseId(app.http, DEMO_BASES.marketing);
    const changeLog = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    const created = await app.http('POST', '/monitoring-config', { body: { baseId: marketing, monitoringBaseId: changeLog } });
    expect(created.status).toBe(201);
    const configId = created.body.config.id as string;
    const configs = app.running.dataSource.getRepository(MonitoringConfig);
    // A base the upstream does not know stands in for one deleted there (the sandbox cannot delete bases).
    await configs.update({ id: configId }, { baseId: 'appGoneGoneGone00' });
    await app.running.services.configHealth.checkAll();
    // A base the connection does not see is not_found on the config's own endpoints (CONTRACT §8); the list shows
    // the config, lost, with what the upkeep found.
    expect((await app.http('GET', `/monitoring-config/${configId}/status`)).status).toBe(404);
    const listed = await createGraphql(
      app.url,
      app.apiKey,
    )('{ monitoringConfigs(first: 100) { edges { node { restId upstreamAccess health { state lastError checkedAt } } } } }');
    const node = listed.data.monitoringConfigs.edges
      .map((edge: { node: { restId: string } }) => edge.node)
      .find((n: { restId: string }) => n.restId === configId);
    expect(node).toEqual({
      restId: configId,
      upstreamAccess: 'LOST',
      health: {
        state: 'MONITORED_BASE_MISSING',
        lastError: `The monitored base appGoneGoneGone00 (${DEMO_BASES.marketing}) is gone upstream or no longer shared with the token`,
        checkedAt: expect.any(String),
      },
    });
    await configs.update({ id: configId }, { baseId: marketing });
    await app.running.services.configHealth.checkAll();
    expect(await status(configId)).toMatchObject({ state: 'ok', lastError: null });
  });
});
