import 'reflect-metadata';
import { execute, parse, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGraphqlSchema } from '../../src/graphql/schema.js';
import { createContext } from '../../src/resolvers/context.js';
import { EventHub } from '../../src/resolvers/support/event-hub.js';
import { appendChanges, sampleChange, type SeedChange } from '../support/change-entries.js';
import { DEMO_BASES, trackBase, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql } from './support/graphql-client.js';
import { pastDays, recordDays } from './support/shapes.js';

let app: TestApp;
let graphql: Graphql;
let base: { id: string };
let config: { id: string };
/** graphql-js's own execute over a schema built the same way, with a context like the gateway's: the reference. */
let reference: GraphQLSchema;

const change = (i: number): SeedChange => sampleChange(i, { nested: [1, null, 'x'] });

beforeAll(async () => {
  // Without the response cache, so that every request runs the compiled plans (a repeated one too).
  app = await startTestApp({ GRAPHQL_RESPONSE_CACHE_MB: '0' });
  graphql = createGraphql(app.url, app.apiKey);
  base = await trackBase(app.http, DEMO_BASES.catalog);
  await recordDays(app, base.id, pastDays(5, '2026-11-20'));
  const res = await app.http('POST', '/monitoring-config', {
    body: { baseId: await upstreamBaseId(app.http, DEMO_BASES.catalog), monitoringBaseId: await upstreamBaseId(app.http, DEMO_BASES.changeLog) },
  });
  config = res.body.config;
  await appendChanges(app.running.services.dataSource, config.id, [change(1), change(2), change(3)]);
  reference = await buildGraphqlSchema();
}, 60_000);
afterAll(() => app?.close());

/** What graphql-js answers for the same operation, as JSON (Dates as their ISO text), errors by message and path. */
async function graphqlJs(query: string, variables: Record<string, unknown> = {}) {
  const context = createContext(app.running.services, new EventHub(), { id: app.accountId, name: 'first' });
  const result = await execute({ schema: reference, document: parse(query), contextValue: context, variableValues: variables });
  return { data: JSON.parse(JSON.stringify(result.data)), errors: result.errors?.map(({ message, path }) => ({ message, path })) };
}

async function compiled(query: string, variables: Record<string, unknown> = {}) {
  const res = await graphql(query, variables);
  return { data: res.data, errors: res.errors?.map(({ message, path }) => ({ message, path })) };
}

const TABLES_AS_STORED = 'tables { tableId tableName recordCount storageBytes fileCount }';

describe('compiled GraphQL execution', () => {
  it('answers what graphql-js answers: aliases, fragments, interfaces, nested lists, errors with their paths', async () => {
    const operations: Array<[string, Record<string, unknown>?]> = [
      [
        `query($id: ID!) { viewer { restId name } base: usageBase(id: $id) { __typename restId
          snapshots(first: 3) { edges { cursor node { ...Day } } pageInfo { hasNextPage endCursor } } } }
         fragment Day on SnapshotDay { id date ${TABLES_AS_STORED} totals { ... on SnapshotTotals { recordCount tableCount } } }`,
        { id: base.id },
      ],
      [
        `query($id: ID!) { monitoringConfig(id: $id) { changes(last: 2) { nodes { restId occurredAt eventType source fieldIds before after
          monitoringConfig { restId } } } } }`,
        { id: config.id },
      ],
      ['{ missing: usageBase(id: "nope") { restId } viewer { restId } __typename }'],
      [
        `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on UsageBase { restId } ... on SnapshotDay { date usageBase { restId } } } }`,
        { ids: [base.id, 'nope'] },
      ],
    ];
    for (const [query, variables] of operations) {
      expect(await compiled(query, variables), query).toEqual(await graphqlJs(query, variables));
    }
  });

  it('splices the stored tables as they are only where the selection is the stored one', async () => {
    const query = (tables: string) => `query($id: ID!) { usageBase(id: $id) { snapshots(first: 2) { nodes { ${tables} } } } }`;
    const asStored = await graphql(query(TABLES_AS_STORED), { id: base.id });
    const rest = await app.http('GET', `/usage/bases/${base.id}/snapshots?limit=2`);
    expect(asStored.data.usageBase.snapshots.nodes.map((day: { tables: unknown }) => day.tables)).toEqual(rest.body.days.map((day: { tables: unknown }) => day.tables));
    expect(asStored.text).toContain(JSON.stringify(rest.body.days[0].tables));

    for (const tables of [
      'tables { fileCount tableId }',
      'tables { name: tableName tableId recordCount storageBytes fileCount }',
      'tables { __typename tableId tableName recordCount storageBytes fileCount }',
      'tables { tableId tableName recordCount storageBytes fileCount } again: tables { tableId }',
    ]) {
      const res = await compiled(query(tables), { id: base.id });
      expect(res, tables).toEqual(await graphqlJs(query(tables), { id: base.id }));
      const first = (res.data as any).usageBase.snapshots.nodes[0];
      expect(Object.keys(first.tables[0]), tables).toEqual(Object.keys((await graphqlJs(query(tables), { id: base.id })).data.usageBase.snapshots.nodes[0].tables[0]));
    }
  });

  it('keeps @skip and @include apart by the values of their variables', async () => {
    const query = `query($id: ID!, $tables: Boolean!) { usageBase(id: $id) { snapshots(first: 1) { nodes { date
      tables @include(if: $tables) { tableId } totals @skip(if: $tables) { tableCount } } } } }`;
    const withTables = await graphql(query, { id: base.id, tables: true });
    const without = await graphql(query, { id: base.id, tables: false });
    expect(Object.keys(withTables.data.usageBase.snapshots.nodes[0])).toEqual(['date', 'tables']);
    expect(Object.keys(without.data.usageBase.snapshots.nodes[0])).toEqual(['date', 'totals']);
  });

  it('shows a newly recorded day and a newly logged change at once (kept pages are per version)', async () => {
    const days = `query($id: ID!) { usageBase(id: $id) { snapshots(first: 2) { nodes { date } } } }`;
    expect((await graphql(days, { id: base.id })).data.usageBase.snapshots.nodes[0].date).toBe('2026-11-20');
    await recordDays(app, base.id, ['2026-11-21']);
    expect((await graphql(days, { id: base.id })).data.usageBase.snapshots.nodes.map((d: { date: string }) => d.date)).toEqual(['2026-11-21', '2026-11-20']);

    const changes = `query($id: ID!) { monitoringConfig(id: $id) { changes(first: 1) { nodes { recordId } } } }`;
    expect((await graphql(changes, { id: config.id })).data.monitoringConfig.changes.nodes[0].recordId).toBe(change(3).recordId);
    await appendChanges(app.running.services.dataSource, config.id, [change(4)]);
    expect((await graphql(changes, { id: config.id })).data.monitoringConfig.changes.nodes[0].recordId).toBe(change(4).recordId);
  });

  it('leaves introspection, and variables that do not fit, to graphql-js as before', async () => {
    const schema = await graphql('{ __schema { queryType { name } } __typename }');
    expect(schema.data).toEqual({ __schema: { queryType: { name: 'Query' } }, __typename: 'Query' });
    const missing = await graphql('query($id: ID!) { usageBase(id: $id) { restId } }', {});
    expect(missing.status).toBe(400);
    expect(missing.data).toBeUndefined();
    expect(codesOf(missing)).toHaveLength(1);
  });

  it('answers the same again once kept rows are rendered, for each selection of them, and splices their bytes whole', async () => {
    await appendChanges(app.running.services.dataSource, config.id, [
      { ...change(5), after: { fldFIELD0000000A: 'naïve café ✓ 𝄞 "quoted" \\ back' }, userName: 'Zoë' },
    ]);
    const operations: Array<[string, Record<string, unknown>]> = [
      [`query($id: ID!) { monitoringConfig(id: $id) { changes(first: 3) { edges { cursor node { restId occurredAt after userName } } pageInfo { endCursor } } } }`, { id: config.id }],
      [`query($id: ID!) { monitoringConfig(id: $id) { changes(first: 3) { edges { node { __typename who: userName after } cursor } } } }`, { id: config.id }],
      [`query($id: ID!) { monitoringConfig(id: $id) { changes(first: 2) { nodes { id restId monitoringConfig { restId } } } } }`, { id: config.id }],
      [`query($id: ID!) { usageBase(id: $id) { snapshots(first: 2) { edges { cursor node { date ${TABLES_AS_STORED} totals { recordCount } } } } } }`, { id: base.id }],
      [`query($id: ID!) { usageBase(id: $id) { snapshots(first: 2) { edges { node { date tables { tableId } } } } } }`, { id: base.id }],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [query, variables] of operations) {
        expect(await compiled(query, variables), `${round}: ${query}`).toEqual(await graphqlJs(query, variables));
      }
    }
    const text = (await graphql(operations[0][0], operations[0][1])).text;
    expect(text).toContain('naïve café ✓ 𝄞 \\"quoted\\" \\\\ back');
    expect(text).not.toMatch(/splice_/);
  });
});
