import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { CHANGES_TABLE_FIELDS } from '../../src/services/audit/changes-table.js';
import { MONITORING_CONFIG_FIELDS } from '../support/interface-shapes.js';

describe('monitoring configs', () => {
  let app: TestApp;
  let catalog: string;
  let marketing: string;
  let changeLog: string;

  beforeAll(async () => {
    app = await startTestApp();
    app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
    catalog = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    marketing = await upstreamBaseId(app.http, DEMO_BASES.marketing);
    changeLog = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
  });
  afterAll(() => app?.close());

  const hooksOf = (baseId: string) => app.running.services.upstream.listWebhooks(baseId);

  it('creates a config with a new Changes table (one column per entry field) and one upstream webhook', async () => {
    const res = await app.http('POST', '/monitoring-config', {
      body: {
        baseId: catalog,
        monitoringBaseId: changeLog,
        scope: 'schema_only',
        timezone: 'europe/berlin',
        workspaceId: 'wspAAAAAAAAAAAAAA',
      },
    });
    expect(res.status).toBe(201);
    const { config } = res.body;
    expect(Object.keys(config).sort()).toEqual(MONITORING_CONFIG_FIELDS);
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
    const table = (await sandboxApi(app.url).schema(changeLog)).find((t) => t.id === config.monitoringTableId)!;
    expect(table.fields.map((f) => f.name)).toEqual(CHANGES_TABLE_FIELDS.map((f) => f.name));
    expect(await hooksOf(catalog)).toHaveLength(1);

    const got = await app.http('GET', `/monitoring-config/${config.id}`);
    expect(got.body).toEqual({ config });
    const list = await app.http('GET', '/monitoring-config');
    expect(list.body).toEqual({ configs: [config] });
  });

  it('reuses the watch for a second config of the same base, adds missing columns to a given table, 409 on the same table', async () => {
    const api = sandboxApi(app.url);
    const own = await api.createTable(changeLog, { name: 'My Log', fields: [{ name: 'Entry ID', type: 'singleLineText' }] });
    const res = await app.http('POST', '/monitoring-config', {
      body: { baseId: catalog, monitoringBaseId: changeLog, monitoringTableId: own.id },
    });
    expect(res.status).toBe(201);
    expect(res.body.config).toMatchObject({
      monitoringTableId: own.id,
      monitoringTableName: 'My Log',
      scope: 'all',
      timezone: 'UTC',
      workspaceId: '',
    });
    const table = (await api.schema(changeLog)).find((t) => t.id === own.id)!;
    expect(table.fields.map((f) => f.name).sort()).toEqual(CHANGES_TABLE_FIELDS.map((f) => f.name).sort());
    expect(await hooksOf(catalog)).toHaveLength(1);

    const again = await app.http('POST', '/monitoring-config', {
      body: { baseId: catalog, monitoringBaseId: changeLog, monitoringTableId: own.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
  });

  it('answers 404 for a base the connection does not see, either of the two', async () => {
    for (const body of [
      { baseId: 'appAAAAAAAAAAAAAA', monitoringBaseId: changeLog },
      { baseId: catalog, monitoringBaseId: 'appAAAAAAAAAAAAAA' },
    ]) {
      const res = await app.http('POST', '/monitoring-config', { body });
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('rejects unknown tables, bad fields and unknown body fields with 400', async () => {
    const cases = [
      { baseId: catalog, monitoringBaseId: changeLog, monitoringTableId: 'tblAAAAAAAAAAAAAA' },
      { baseId: catalog, monitoringBaseId: changeLog, scope: 'everything' },
      { baseId: catalog, monitoringBaseId: changeLog, timezone: 'Mars/Olympus' },
      { baseId: catalog, monitoringBaseId: changeLog, extra: true },
      { baseId: 'Acme', monitoringBaseId: changeLog },
      { monitoringBaseId: changeLog },
    ];
    for (const body of cases) {
      const res = await app.http('POST', '/monitoring-config', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    }
  });

  it('PATCH changes scope and timezone; an empty object changes nothing; bad values are 400', async () => {
    const { config } = (await app.http('POST', '/monitoring-config', { body: { baseId: marketing, monitoringBaseId: changeLog } })).body;
    const empty = await app.http('PATCH', `/monitoring-config/${config.id}`, { body: {} });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ config });
    const patched = await app.http('PATCH', `/monitoring-config/${config.id}`, {
      body: { scope: 'records_only', timezone: 'America/New_York' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.config).toMatchObject({
      ...config,
      scope: 'records_only',
      timezone: 'America/New_York',
      updatedAt: expect.any(String),
    });
    expect(patched.body.config.updatedAt >= config.updatedAt).toBe(true);
    for (const body of [{ scope: 'none' }, { timezone: 'Nowhere/City' }, { baseId: catalog }]) {
      const res = await app.http('PATCH', `/monitoring-config/${config.id}`, { body });
      expect(res.status).toBe(400);
    }
  });

  it('isolates accounts: another account gets 404 for every operation on a config', async () => {
    const [config] = (await app.http('GET', '/monitoring-config')).body.configs;
    expect(config).toBeDefined();
    const other = app.other.http;
    expect((await other('GET', '/monitoring-config')).body).toEqual({ configs: [] });
    expect((await other('GET', `/monitoring-config/${config.id}`)).status).toBe(404);
    expect((await other('PATCH', `/monitoring-config/${config.id}`, { body: { scope: 'all' } })).status).toBe(404);
    expect((await other('DELETE', `/monitoring-config/${config.id}`)).status).toBe(404);
    expect((await other('GET', `/monitoring-config/${config.id}/changes`)).status).toBe(404);
    expect((await app.http('GET', '/monitoring-config/not-a-uuid')).status).toBe(404);
  });

  it('deletes the upstream webhook only with the last config of a base', async () => {
    const configs = (await app.http('GET', '/monitoring-config')).body.configs.filter((c: { baseId: string }) => c.baseId === catalog);
    expect(configs).toHaveLength(2);
    expect((await app.http('DELETE', `/monitoring-config/${configs[0].id}`)).status).toBe(204);
    expect(await hooksOf(catalog)).toHaveLength(1);
    expect((await app.http('DELETE', `/monitoring-config/${configs[1].id}`)).status).toBe(204);
    expect(await hooksOf(catalog)).toHaveLength(0);
    expect((await app.http('GET', `/monitoring-config/${configs[1].id}`)).status).toBe(404);
    expect(await app.running.services.watches.find({ baseId: catalog })).toBeNull();
  });
});
