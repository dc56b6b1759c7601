import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendChanges, sampleChange } from '../support/change-entries.js';
import { DEMO_BASES, trackBase, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql } from './support/graphql-client.js';
import { pastDays, recordDays } from './support/shapes.js';

const DAYS = `query($id: ID!) { usageBase(id: $id) { snapshots(first: 2) { nodes { date } } } }`;
const CHANGES = `query($id: ID!) { monitoringConfig(id: $id) { changes(first: 2) { nodes { restId } } } }`;

interface Seeded {
  app: TestApp;
  baseId: string;
  configId: string;
}

async function seed(env: Record<string, string>): Promise<Seeded> {
  const app = await startTestApp(env);
  const base = await trackBase(app.http, DEMO_BASES.catalog);
  await recordDays(app, base.id, pastDays(3, '2026-11-20'));
  const res = await app.http('POST', '/monitoring-config', {
    body: {
      baseId: await upstreamBaseId(app.http, DEMO_BASES.catalog),
      monitoringBaseId: await upstreamBaseId(app.http, DEMO_BASES.changeLog),
    },
  });
  await appendChanges(app.running.services.dataSource, res.body.config.id, [sampleChange(1), sampleChange(2), sampleChange(3)]);
  return { app, baseId: base.id, configId: res.body.config.id };
}

/** Rows removed behind the services' back: no entity version moves, so only a cached page still shows them. */
async function deleteBehindTheServices({ app, baseId, configId }: Seeded): Promise<void> {
  await app.running.services.dataSource.query('DELETE FROM usage_snapshot WHERE usage_base_id = ?', [baseId]);
  await app.running.services.dataSource.query('DELETE FROM change_entry_field WHERE config_id = ?', [configId]);
  await app.running.services.dataSource.query('DELETE FROM change_entry WHERE config_id = ?', [configId]);
}

/**
 * Snapshot and change pages are cached once, in the services, under the entity's version: a page REST read is what
 * GraphQL answers (and the other way round), a write that bumps the version shows at once, and CACHE_MAX_MB=0 keeps nothing.
 */
describe('the services’ read-model cache', () => {
  let cached: Seeded;
  let uncached: Seeded;

  beforeAll(async () => {
    cached = await seed({});
    uncached = await seed({ CACHE_MAX_MB: '0' });
  }, 60_000);
  afterAll(async () => {
    await cached?.app.close();
    await uncached?.app.close();
  });

  it('serves GraphQL the pages REST read, and REST the pages GraphQL read, until the version moves', async () => {
    const { app, baseId, configId } = cached;
    const graphql = createGraphql(app.url, app.apiKey);
    // REST fills the snapshot page (newest 2, one more for the cursor: the same read as GraphQL's first: 2) …
    for (let read = 0; read < 2; read++)
      expect((await app.http('GET', `/usage/bases/${baseId}/snapshots?limit=2`)).body.days).toHaveLength(2);
    // … and GraphQL the change page (each is kept from its second read).
    for (let read = 0; read < 2; read++)
      expect((await graphql(CHANGES, { id: configId })).data.monitoringConfig.changes.nodes).toHaveLength(2);
    await deleteBehindTheServices(cached);

    expect((await graphql(DAYS, { id: baseId })).data.usageBase.snapshots.nodes.map((d: { date: string }) => d.date)).toEqual([
      '2026-11-20',
      '2026-11-19',
    ]);
    expect((await app.http('GET', `/monitoring-config/${configId}/changes?limit=2`)).body.records).toHaveLength(2);

    // A recorded day bumps the base's snapshot version, a logged change the config's changes version: read afresh.
    await recordDays(app, baseId, ['2026-11-21']);
    expect((await graphql(DAYS, { id: baseId })).data.usageBase.snapshots.nodes.map((d: { date: string }) => d.date)).toEqual([
      '2026-11-21',
    ]);
    await appendChanges(app.running.services.dataSource, configId, [sampleChange(4)]);
    const records = (await app.http('GET', `/monitoring-config/${configId}/changes?limit=2`)).body.records;
    expect(records.map((r: { recordId: string }) => r.recordId)).toEqual([sampleChange(4).recordId]);
  });

  it('keeps nothing with CACHE_MAX_MB=0', async () => {
    const { app, baseId, configId } = uncached;
    const graphql = createGraphql(app.url, app.apiKey);
    for (let read = 0; read < 2; read++) {
      expect((await app.http('GET', `/usage/bases/${baseId}/snapshots?limit=2`)).body.days).toHaveLength(2);
      expect((await graphql(CHANGES, { id: configId })).data.monitoringConfig.changes.nodes).toHaveLength(2);
    }
    await deleteBehindTheServices(uncached);
    expect((await graphql(DAYS, { id: baseId })).data.usageBase.snapshots.nodes).toEqual([]);
    expect((await app.http('GET', `/monitoring-config/${configId}/changes?limit=2`)).body.records).toEqual([]);
  });
});
