import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql, type Graphql } from './support/graphql-client.js';
import { pastDays, recordDays } from './support/shapes.js';

let app: TestApp;
let graphql: Graphql;
let usageBaseId: string;
/** SQL statements the app's DataSource ran, as TypeORM announces them. */
let statements: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  app.running.dataSource.subscribers.push({ beforeQuery: (event) => void statements.push(event.query) });
  graphql = createGraphql(app.url, app.apiKey);
  usageBaseId = (await trackBase(app.http, 'Acme Product Catalog')).id;
  await recordDays(app, usageBaseId, pastDays(3));
}, 60_000);
afterAll(() => app.close());

const SNAPSHOTS = `query Days($id: ID!) { usageBase(id: $id) { baseName
  snapshots(first: 10) { edges { node { date totals { recordCount } } } pageInfo { hasNextPage endCursor } } } }`;

/** Runs `query` and tells whether it ran any SQL (an answer reused from the cache runs none). */
async function run(query: string, variables?: Record<string, unknown>, options?: Parameters<Graphql>[2]) {
  statements = [];
  const res = await graphql(query, variables, options);
  return { res, ranSql: statements.some((sql) => !/api_key/.test(sql)) };
}

describe('GraphQL response reuse (embedded SQLite)', () => {
  it('answers a repeated query from the cache, byte for byte, until anything is written', async () => {
    const first = await run(SNAPSHOTS, { id: usageBaseId });
    expect(first.res.errors).toBeUndefined();
    expect(first.ranSql).toBe(true);
    const again = await run(SNAPSHOTS, { id: usageBaseId });
    expect(again.ranSql).toBe(false);
    expect(again.res.text).toBe(first.res.text);
    expect(again.res.headers.get('content-type')).toBe(first.res.headers.get('content-type'));

    await recordDays(app, usageBaseId, ['2026-11-21']);
    const afterCount = await run(SNAPSHOTS, { id: usageBaseId });
    expect(afterCount.ranSql).toBe(true);
    expect(afterCount.res.data.usageBase.snapshots.edges[0].node.date).toBe('2026-11-21');

    expect((await app.http('PATCH', `/usage/bases/${usageBaseId}`, { body: { baseName: 'Renamed by REST' } })).status).toBe(200);
    expect((await run(SNAPSHOTS, { id: usageBaseId })).res.data.usageBase.baseName).toBe('Renamed by REST');
  });

  it('sees writes made by another connection to the database file (the CLI, a second process)', async () => {
    await run(SNAPSHOTS, { id: usageBaseId });
    expect((await run(SNAPSHOTS, { id: usageBaseId })).ranSql).toBe(false);
    const other = new Database(join(app.dir, 'test.sqlite'));
    try {
      other.prepare('UPDATE usage_base SET base_name = ? WHERE id = ?').run('Renamed elsewhere', usageBaseId);
    } finally {
      other.close();
    }
    const res = await run(SNAPSHOTS, { id: usageBaseId });
    expect(res.ranSql).toBe(true);
    expect(res.res.data.usageBase.baseName).toBe('Renamed elsewhere');
  });

  it('keeps answers per account: the same request from another account gets its own answer', async () => {
    const mine = await run(SNAPSHOTS, { id: usageBaseId });
    expect(mine.res.data.usageBase).not.toBeNull();
    const theirs = await graphql(SNAPSHOTS, { id: usageBaseId }, { key: app.other.apiKey });
    expect(theirs.errors?.map((e) => e.extensions?.code)).toEqual(['not_found']);
    expect(theirs.text).not.toContain(mine.res.data.usageBase.baseName);
  });

  it('never reuses answers that read the upstream or the scheduler, or that carry errors', async () => {
    const bases = '{ airtableBases { name } }';
    const before = (await run(bases)).res.data.airtableBases.map((b: { name: string }) => b.name);
    app.running.sandbox!.store.addBase({ name: 'Added upstream only', tables: [] });
    const after = (await run(bases)).res.data.airtableBases.map((b: { name: string }) => b.name);
    expect(after).toEqual([...before, 'Added upstream only']);

    const schedule = `query S($id: ID!) { usageBase(id: $id) { schedule { nextRunAt } } }`;
    await run(schedule, { id: usageBaseId });
    expect((await run(schedule, { id: usageBaseId })).ranSql).toBe(true);

    const failing = `query F($id: ID!) { usageBase(id: $id) { snapshots(first: 1, after: "not-a-cursor") { edges { cursor } } } }`;
    expect((await run(failing, { id: usageBaseId })).res.errors).toHaveLength(1);
    const retried = await run(failing, { id: usageBaseId });
    expect(retried.res.errors).toHaveLength(1);
    expect(retried.ranSql).toBe(true);
  });

  it('sends the kept answer gzip-compressed to a client that asks for it', async () => {
    const big = `query Big($id: ID!) { usageBase(id: $id) { snapshots(first: 100) { edges { cursor node { id date
      tables { tableId tableName recordCount storageBytes fileCount } } } } } }`;
    await recordDays(app, usageBaseId, pastDays(60, '2026-09-30'));
    const plain = await run(big, { id: usageBaseId });
    expect(plain.res.text.length).toBeGreaterThan(8_192);
    const response = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${app.apiKey}`, 'accept-encoding': 'gzip' },
      body: JSON.stringify({ query: big, variables: { id: usageBaseId } }),
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe(plain.res.text);
  });
});

describe('GraphQL response reuse turned off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ GRAPHQL_RESPONSE_CACHE_MB: '0' });
  }, 60_000);
  afterAll(() => off.close());

  it('runs every request when GRAPHQL_RESPONSE_CACHE_MB=0', async () => {
    const ran: string[] = [];
    off.running.dataSource.subscribers.push({ beforeQuery: (event) => void ran.push(event.query) });
    const offGraphql = createGraphql(off.url, off.apiKey);
    const query = '{ usageBases(first: 5) { edges { node { restId } } } }';
    await offGraphql(query);
    ran.length = 0;
    expect((await offGraphql(query)).errors).toBeUndefined();
    expect(ran.filter((sql) => /usage_base/.test(sql))).not.toHaveLength(0);
  });
});
