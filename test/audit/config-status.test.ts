import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringConfig } from '../../src/entities/index.js';
import { createGraphql } from '../graphql/support/graphql-client.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { MONITORING_CONFIG_FIELDS } from '../support/interface-shapes.js';

/**
 * A config's health over REST (GET …/status) and GraphQL (health). When each state is found:
 * test/services/config-health.service.test.ts.
 */

const HEALTH = `query($id: ID!) { monitoringConfig(id: $id) { health { state lastError checkedAt } } }`;

describe('monitoring config status', () => {
  let app: TestApp;
  let marketing: string;
  let changeLog: string;

  beforeAll(async () => {
    app = await startTestApp();
    app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
    marketing = await upstreamBaseId(app.http, DEMO_BASES.marketing);
    changeLog = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
  });
  afterAll(() => app?.close());

  const newConfig = async (scope: string) => {
    const created = await app.http('POST', '/monitoring-config', { body: { baseId: marketing, monitoringBaseId: changeLog, scope } });
    expect(created.status).toBe(201);
    return created.body.config.id as string;
  };
  const entity = (id: string) => app.running.dataSource.getRepository(MonitoringConfig).findOneByOrFail({ id });

  it('answers the recorded state through REST and GraphQL alike; the config keeps the interface’s fields', async () => {
    const configId = await newConfig('records_only');
    const ok = await app.http('GET', `/monitoring-config/${configId}/status`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: { state: 'ok', lastError: null, checkedAt: expect.any(String) } });

    await app.running.services.configHealth.record(await entity(configId), 'changes_table_missing', 'The Changes table is gone');
    const missing = await app.http('GET', `/monitoring-config/${configId}/status`);
    expect(missing.status).toBe(200);
    expect(missing.body.status).toEqual({
      state: 'changes_table_missing',
      lastError: 'The Changes table is gone',
      checkedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const graphql = await createGraphql(app.url, app.apiKey)(HEALTH, { id: configId });
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.monitoringConfig.health).toEqual({ ...missing.body.status, state: 'CHANGES_TABLE_MISSING' });
    // The REST config keeps the interface's shape exactly.
    expect(Object.keys((await app.http('GET', `/monitoring-config/${configId}`)).body.config).sort()).toEqual(MONITORING_CONFIG_FIELDS);
    const other = await app.other.http('GET', `/monitoring-config/${configId}/status`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: expect.any(String), code: 'not_found' });
  });

  it('is 404 for a config whose monitored base is gone, which GraphQL’s list shows lost with its health', async () => {
    const configId = await newConfig('schema_only');
    await app.running.dataSource.getRepository(MonitoringConfig).update({ id: configId }, { baseId: 'appGoneGoneGone00' });
    await app.running.services.configHealth.checkAll();
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
  });
});
