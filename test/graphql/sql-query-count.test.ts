import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendChanges } from '../support/change-entries.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql } from './support/graphql-client.js';
import { pastDays, recordDays } from './support/shapes.js';

let app: TestApp;
/** SQL statements the app's DataSource ran, as TypeORM announces them. */
let statements: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  app.running.dataSource.subscribers.push({ beforeQuery: (event) => void statements.push(event.query) });
}, 120_000);
afterAll(() => app.close());

/** An account tracking `count` bases, each with a few counted days. */
async function accountWithBases(count: number) {
  const account = await app.newAccount(`${count} bases`);
  for (let i = 0; i < count; i += 1) {
    const upstream = app.running.sandbox!.store.addBase({ name: `Base ${count}-${i}`, tables: [] });
    const created = await account.http('POST', '/usage/bases', { body: { baseId: upstream.id } });
    expect(created.status).toBe(201);
    await recordDays(app, created.body.base.id, pastDays(3));
  }
  return createGraphql(app.url, account.apiKey);
}

const QUERY = `{ usageBases(first: 100) { edges { cursor node { id restId baseName
  latestSnapshot { id date totals { recordCount storageBytes } tables { tableId recordCount } usageBase { restId } } } } } }`;

async function statementsFor(graphql: ReturnType<typeof createGraphql>, query = QUERY) {
  await graphql('{ viewer { id } }');
  // The upstream requests made so far are counted in the table now rather than by the timer during the query.
  await app.running.services.apiCallLedger.flush();
  statements = [];
  const res = await graphql(query);
  expect(res.errors).toBeUndefined();
  // Not of the query under test, which only reads: the sandbox's pings to /upstream/notifications, the key's look-up
  // again once its cache entry lapses, and the API-call ledger's timed flush (a transaction of its own) of requests
  // that background work (the base's mirror) sent meanwhile.
  const ours = statements.filter((sql) => !/upstream_watch|api_key|upstream_api_call|^(BEGIN|COMMIT|ROLLBACK)\b/.test(sql));
  return { data: res.data, statements: ours };
}

describe('DataLoaders', () => {
  it('answers 100 bases with their latest snapshots in as many SQL statements as 2 bases', async () => {
    const few = await statementsFor(await accountWithBases(2));
    const many = await statementsFor(await accountWithBases(100));
    expect(few.data.usageBases.edges).toHaveLength(2);
    expect(many.data.usageBases.edges).toHaveLength(100);
    expect(many.statements, many.statements.join('\n')).toHaveLength(few.statements.length);
    expect(many.statements.length).toBeLessThanOrEqual(4);
  }, 120_000);
});

/** An account with `count` monitoring configs (made through REST), each with a few logged changes. */
async function accountWithConfigs(count: number) {
  const account = await app.newAccount(`${count} configs`);
  const baseId = await upstreamBaseId(account.http, DEMO_BASES.catalog);
  for (let i = 0; i < count; i += 1) {
    // A log base of its own for each: a second config of one base into one log base is refused.
    const monitoringBaseId = app.running.sandbox!.store.addBase({ name: `Log ${count}-${i}`, tables: [] }).id;
    const created = await account.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId } });
    expect(created.status).toBe(201);
    await appendChanges(app.running.dataSource, created.body.config.id, [
      { occurredAt: '2026-05-01T10:00:00.000Z', eventType: 'record_create' },
      { occurredAt: '2026-05-01T11:00:00.000Z', eventType: 'record_update', fieldIds: ['fldAAAAAAAAAAAAAA'] },
      { occurredAt: '2026-05-01T12:00:00.000Z', eventType: 'record_update', before: { a: 1 }, after: { a: 2 } },
      { occurredAt: '2026-05-01T12:00:00.000Z', eventType: 'record_delete' },
    ]);
  }
  return createGraphql(app.url, account.apiKey);
}

const CONFIGS = `{ monitoringConfigs(first: 100) { edges { cursor node { restId scope
  latest: changes(first: 2) { edges { cursor node { id restId eventType occurredAt before after monitoringConfig { restId } } } pageInfo { hasNextPage } }
  updates: changes(last: 1, filter: { eventType: RECORD_UPDATE }) { nodes { restId fieldIds } pageInfo { hasPreviousPage } } } } } }`;

describe('DataLoaders over monitoring configs', () => {
  it('answers 12 configs with two pages of changes each in as many SQL statements as 2 configs', async () => {
    app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
    const few = await statementsFor(await accountWithConfigs(2), CONFIGS);
    const many = await statementsFor(await accountWithConfigs(12), CONFIGS);
    expect(many.data.monitoringConfigs.edges).toHaveLength(12);
    for (const { node } of many.data.monitoringConfigs.edges) {
      expect(node.latest.edges.map((e: { node: { eventType: string } }) => e.node.eventType)).toEqual(['RECORD_DELETE', 'RECORD_UPDATE']);
      expect(node.latest.edges[0].node.monitoringConfig).toEqual({ restId: node.restId });
      expect(node.latest.pageInfo).toEqual({ hasNextPage: true });
      expect(node.updates.nodes).toHaveLength(1);
      expect(node.updates.nodes[0].fieldIds).toEqual(['fldAAAAAAAAAAAAAA']);
      expect(node.updates.pageInfo).toEqual({ hasPreviousPage: true });
    }
    // The change pages are read outside TypeORM's query runner (repositories/raw-rows.ts) and still announced: one per changes field (latest, updates).
    expect(many.statements.filter((sql) => sql.includes('FROM change_entry'))).toHaveLength(2);
    expect(many.statements, many.statements.join('\n')).toHaveLength(few.statements.length);
    expect(many.statements.length).toBeLessThanOrEqual(4);
  }, 120_000);
});
