import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { MONITORING_CONFIG_FIELDS } from '../support/interface-shapes.js';

/**
 * Monitoring configs over HTTP: each route's status and documented shape, one 400, one 404, one 409. Their rules
 * (tables, watches, validation, isolation, identical configs): test/services/monitoring-config.service.test.ts.
 */
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

  it('POST answers 201 with the config in exactly the interface’s fields; GET one and GET the list answer it', async () => {
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
    expect(config).toMatchObject({ baseId: catalog, monitoringBaseId: changeLog, scope: 'schema_only', timezone: 'Europe/Berlin' });

    const got = await app.http('GET', `/monitoring-config/${config.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ config });
    const list = await app.http('GET', '/monitoring-config');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ configs: [config] });

    const again = await app.http('POST', '/monitoring-config', {
      body: { baseId: catalog, monitoringBaseId: changeLog, scope: 'schema_only' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: expect.stringContaining(config.id), code: 'conflict' });
  });

  it('answers a refused body with 400 {message, code} and an unseen base with 404', async () => {
    const bad = await app.http('POST', '/monitoring-config', {
      body: { baseId: catalog, monitoringBaseId: changeLog, scope: 'everything' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: expect.any(String), code: 'invalid_request' });
    const unseen = await app.http('POST', '/monitoring-config', { body: { baseId: 'appAAAAAAAAAAAAAA', monitoringBaseId: changeLog } });
    expect(unseen.status).toBe(404);
    expect(unseen.body).toEqual({ message: expect.any(String), code: 'not_found' });
  });

  it('PATCH answers 200 with the updated config, 400 for a bad value; DELETE answers 204, then 404', async () => {
    const { config } = (await app.http('POST', '/monitoring-config', { body: { baseId: marketing, monitoringBaseId: changeLog } })).body;
    const patched = await app.http('PATCH', `/monitoring-config/${config.id}`, { body: { scope: 'records_only' } });
    expect(patched.status).toBe(200);
    expect(patched.body.config).toMatchObject({ ...config, scope: 'records_only', updatedAt: expect.any(String) });
    expect(Object.keys(patched.body.config).sort()).toEqual(MONITORING_CONFIG_FIELDS);
    const bad = await app.http('PATCH', `/monitoring-config/${config.id}`, { body: { timezone: 'Nowhere/City' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: expect.any(String), code: 'invalid_request' });

    expect((await app.http('DELETE', `/monitoring-config/${config.id}`)).status).toBe(204);
    const gone = await app.http('GET', `/monitoring-config/${config.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: expect.any(String), code: 'not_found' });
    expect((await app.http('DELETE', `/monitoring-config/${config.id}`)).status).toBe(404);
    expect((await app.http('GET', '/monitoring-config/not-a-uuid')).status).toBe(404);
  });

  it('answers another account 404 on a config’s paths', async () => {
    const [config] = (await app.http('GET', '/monitoring-config')).body.configs;
    const other = app.other.http;
    expect((await other('GET', '/monitoring-config')).body).toEqual({ configs: [] });
    expect((await other('GET', `/monitoring-config/${config.id}`)).status).toBe(404);
    expect((await other('PATCH', `/monitoring-config/${config.id}`, { body: { scope: 'all' } })).status).toBe(404);
    expect((await other('DELETE', `/monitoring-config/${config.id}`)).status).toBe(404);
  });
});
