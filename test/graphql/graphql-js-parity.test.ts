import 'reflect-metadata';
import { execute, parse, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGraphqlSchema } from '../../src/graphql/schema.js';
import { createContext } from '../../src/resolvers/context.js';
import { toGlobalId } from '../../src/resolvers/relay/global-id.js';
import { EventHub } from '../../src/resolvers/support/event-hub.js';
import { appendChanges, sampleChange, type SeedChange } from '../support/change-entries.js';
import { relaxSandboxRateLimit, tableRows } from '../audit/audit-support.js';
import { DEMO_BASES, newLogBase, trackBase, upstreamBaseId } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql } from './support/graphql-client.js';
import { CHANGE_FIELDS, MONITORING_CONFIG_FIELDS, pastDays, recordDays, SNAPSHOT_DAY_FIELDS, USAGE_BASE_FIELDS } from './support/shapes.js';

let app: TestApp;
let graphql: Graphql;
let base: { id: string };
let config: { id: string };
/** A config of another base whose mirror is seeded, with a deleted record and a stored restore. */
let mirrored: { configId: string; tableId: string; recordId: string; restoreId: string };
/** graphql-js's own execute over a schema built the same way, with a context like the gateway's: the reference. */
let reference: GraphQLSchema;

const change = (i: number): SeedChange => sampleChange(i, { nested: [1, null, 'x'] });

beforeAll(async () => {
  app = await startTestApp();
  graphql = createGraphql(app.url, app.apiKey);
  base = await trackBase(app.http, DEMO_BASES.catalog);
  await recordDays(app, base.id, pastDays(5, '2026-11-20'));
  const res = await app.http('POST', '/monitoring-config', {
    body: {
      baseId: await upstreamBaseId(app.http, DEMO_BASES.catalog),
      monitoringBaseId: await upstreamBaseId(app.http, DEMO_BASES.changeLog),
    },
  });
  config = res.body.config;
  await appendChanges(app.running.services.dataSource, config.id, [
    change(1),
    change(2),
    change(3),
    { ...change(4), after: { fldFIELD0000000A: 'naïve café ✓ 𝄞 "quoted" \\ back' }, userName: 'Zoë' },
  ]);
  mirrored = await seededMirror();
  reference = await buildGraphqlSchema();
}, 60_000);

/** The mirror as its jobs (not run here) would make it: seeded, a record deleted since, a restore kept. */
async function seededMirror() {
  const { services } = app.running;
  relaxSandboxRateLimit(app);
  const baseId = await upstreamBaseId(app.http, DEMO_BASES.marketing);
  const res = await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId: newLogBase(app) } });
  expect(res.status).toBe(201);
  expect(await services.mirrorSeeds.seed(baseId)).toBe('live');
  const api = sandboxApi(app.url);
  const [table] = await api.schema(baseId);
  const [kept, gone] = await tableRows(api, baseId, table!.id);
  await api.deleteRecords(baseId, table!.id, [gone!.id], { source: 'client', email: 'ann@example.com' });
  await services.changeIngest.ingest((await services.watches.find({ baseId }))!.id);
  const deleted = await services.mirrorReads.deleted(app.accountId, res.body.config.id, { tableId: table!.id, limit: 10 });
  expect(deleted.records.map((record) => record.id)).toEqual([gone!.id]);
  const restore = await services.mirrorRestores.create(app.accountId, res.body.config.id, { tableId: table!.id, recordIds: [kept!.id] });
  return { configId: res.body.config.id as string, tableId: table!.id, recordId: kept!.id, restoreId: restore.id };
}
afterAll(() => app?.close());

/** What graphql-js answers for the same operation, as JSON (Dates as their ISO text), errors by message, path and locations. */
async function graphqlJs(query: string, variables: Record<string, unknown> = {}) {
  const context = createContext(app.running.services, new EventHub(), { id: app.accountId, name: 'first' });
  const result = await execute({ schema: reference, document: parse(query), contextValue: context, variableValues: variables });
  return {
    data: JSON.parse(JSON.stringify(result.data)),
    errors: result.errors?.map(({ message, path, locations }) => ({ message, path, locations })),
  };
}

/** The served answer: Apollo over HTTP, executed by graphql-jit. */
async function served(query: string, variables: Record<string, unknown> = {}) {
  const res = await graphql(query, variables);
  return { data: res.data, errors: res.errors?.map(({ message, path, locations }) => ({ message, path, locations })) };
}

/** The cursors of a connection's page, as a test walks through its pages. */
type PageOf = { pageInfo: { startCursor: string | null; endCursor: string | null } };
const PAGE_INFO = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';
/** Page arguments of every connection: sizes from either end, both, none, empty, and out of range (an error). */
const PAGINGS = [
  '',
  '(first: 0)',
  '(first: 2)',
  '(last: 2)',
  '(first: 3, last: 2)',
  '(last: 0)',
  '(first: 101)',
  '(last: -1)',
  '(after: "nonsense")',
];
/** Page arguments of the connections that page forward only. */
const FORWARD_PAGINGS = ['', '(first: 0)', '(first: 1)', '(first: 101)', '(after: "nonsense")'];
/**
 * Ways to select a connection's items: edges with cursors, nodes, both under aliases (the first of `fields`, the id of
 * a Node, beside them all), a fragment, a count.
 */
const selectionsOf = (fields: string, type: string) => [
  `edges { cursor node { ${fields} } } ${PAGE_INFO}`,
  `nodes { __typename ${fields} } totalCount`,
  `a: edges { node { ${fields.split(' ')[0]} } } b: nodes { ... on ${type} { ${fields} } } ${PAGE_INFO}`,
  `edges { node { ...F } } fragment_placeholder`,
];

function operations(): Array<[string, Record<string, unknown>]> {
  const ops: Array<[string, Record<string, unknown>]> = [];
  const connection = (
    build: (paging: string, selection: string) => string,
    fields: string,
    type: string,
    variables: Record<string, unknown>,
    pagings = PAGINGS,
  ) => {
    for (const paging of pagings) {
      for (const selection of selectionsOf(fields, type)) {
        const [body, fragment] = selection.endsWith('fragment_placeholder')
          ? [selection.replace(' fragment_placeholder', ''), ` fragment F on ${type} { ${fields} }`]
          : [selection, ''];
        ops.push([`${build(paging, body)}${fragment}`, variables]);
      }
    }
  };
  connection((p, s) => `query($id: ID!) { usageBase(id: $id) { restId snapshots${p} { ${s} } } }`, SNAPSHOT_DAY_FIELDS, 'SnapshotDay', {
    id: base.id,
  });
  connection(
    (p, s) => `query($id: ID!) { monitoringConfig(id: $id) { restId changes${p} { ${s} } } }`,
    `${CHANGE_FIELDS} monitoringConfig { restId }`,
    'Change',
    { id: config.id },
  );
  connection(
    (p, s) => `{ usageBases${p} { ${s} } }`,
    `${USAGE_BASE_FIELDS} latestSnapshot { date totals { recordCount } }`,
    'UsageBase',
    {},
  );
  connection((p, s) => `{ monitoringConfigs${p} { ${s} } }`, MONITORING_CONFIG_FIELDS, 'MonitoringConfig', {});
  /** Paging arguments beside the field's own. */
  const withArgs = (paging: string, own: string) => `(${[own, paging.slice(1, -1)].filter(Boolean).join(', ')})`;
  connection(
    (p, s) =>
      `query($id: ID!, $recordId: String!) { monitoringConfig(id: $id) { recordHistory${withArgs(p, 'recordId: $recordId')} { ${s} } } }`,
    'at eventType source userEmail fields',
    'RecordVersion',
    { id: mirrored.configId, recordId: mirrored.recordId },
    FORWARD_PAGINGS,
  );
  connection(
    (p, s) =>
      `query($id: ID!, $tableId: String) { monitoringConfig(id: $id) { deletedRecords${withArgs(p, 'tableId: $tableId')} { ${s} } } }`,
    'recordId tableId deletedAt deletedBy fields',
    'DeletedRecord',
    { id: mirrored.configId, tableId: mirrored.tableId },
    FORWARD_PAGINGS,
  );
  ops.push(
    [
      `query($id: ID!) { viewer { restId name } base: usageBase(id: $id) { __typename restId
        snapshots(first: 3) { edges { cursor node { ...Day } } pageInfo { hasNextPage endCursor } } } }
       fragment Day on SnapshotDay { id date tables { tableId tableName recordCount storageBytes fileCount } totals { ... on SnapshotTotals { recordCount tableCount } } }`,
      { id: base.id },
    ],
    ['{ missing: usageBase(id: "nope") { restId } viewer { restId } __typename }', {}],
    ['query($id: ID!) { monitoringConfig(id: $id) { restId } }', { id: '00000000-0000-4000-8000-000000000000' }],
    [
      `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on UsageBase { restId } ... on SnapshotDay { date usageBase { restId } } } }`,
      { ids: [base.id, 'nope'] },
    ],
    [
      `query($id: ID!, $tables: Boolean!) { usageBase(id: $id) { snapshots(first: 2) { nodes { date
        tables @include(if: $tables) { tableId } totals @skip(if: $tables) { tableCount } } } } }`,
      { id: base.id, tables: true },
    ],
    [
      `query($id: ID!, $tables: Boolean!) { usageBase(id: $id) { snapshots(first: 2) { nodes { date
        tables @include(if: $tables) { tableId } totals @skip(if: $tables) { tableCount } } } } }`,
      { id: base.id, tables: false },
    ],
    [
      `query($id: ID!) { monitoringConfig(id: $id) { changes(first: 2, filter: { eventType: RECORD_UPDATE }) { nodes { restId eventType } totalCount } } }`,
      { id: config.id },
    ],
    [
      `query($id: ID!) { usageBase(id: $id) { snapshots(first: 2, from: "2026-11-18", to: "2026-11-19") { nodes { date } totalCount } } }`,
      { id: base.id },
    ],
    [`query($id: ID!) { usageBase(id: $id) { snapshots(from: "2026-11-19", to: "2026-11-18") { nodes { date } } } }`, { id: base.id }],
    [
      `query($id: ID!) { monitoringConfig(id: $id) { mirror { __typename status seededAt continuousSince tables { tableId tableName recordCount } } } }`,
      { id: mirrored.configId },
    ],
    [
      `query($id: ID!, $recordId: String!, $at: DateTime) { monitoringConfig(id: $id) { restId
        now: record(id: $recordId) { recordId tableId createdTime deletedAt fields }
        then: record(id: $recordId, at: $at) { recordId }
        unknown: record(id: "recAAAAAAAAAAAAAA") { recordId }
        malformed: record(id: "nope") { recordId } } }`,
      { id: mirrored.configId, recordId: mirrored.recordId, at: '2000-01-01T00:00:00.000Z' },
    ],
    [
      `query($id: ID!) { monitoringConfig(id: $id) { deletedRecords(from: "2026-02-02", to: "2026-02-01") { totalCount } } }`,
      { id: mirrored.configId },
    ],
    [
      `query($id: ID!) { node(id: $id) { __typename id ... on Restore { restId status at tableId create update skippedFieldIds
        progress { done total } createdRecordIds { deletedRecordId recordId } error createdAt finishedAt } } }`,
      { id: toGlobalId('Restore', mirrored.configId, mirrored.restoreId) },
    ],
  );
  return ops;
}

describe('GraphQL answers as graphql-js answers', () => {
  it('data and errors (message, path, locations) of many operations equal graphql-js execute on the same schema and data', async () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(150);
    for (const [query, variables] of all) {
      expect(await served(query, variables), query).toEqual(await graphqlJs(query, variables));
    }
    // Again, once every query is compiled and every page is cached.
    for (const [query, variables] of all) {
      expect(await served(query, variables), `again: ${query}`).toEqual(await graphqlJs(query, variables));
    }
  }, 120_000);

  it('walks every page with cursors from both ends as graphql-js does', async () => {
    const days = (paging: string) =>
      `query($id: ID!) { usageBase(id: $id) { snapshots(${paging}) { edges { cursor node { date } } ${PAGE_INFO} } } }`;
    const changes = (paging: string) =>
      `query($id: ID!) { monitoringConfig(id: $id) { changes(${paging}) { edges { cursor node { restId after } } ${PAGE_INFO} } } }`;
    for (const [page, id] of [
      [days, base.id],
      [changes, config.id],
    ] as const) {
      for (const [size, cursorArg, end] of [
        ['first', 'after', 'endCursor'],
        ['last', 'before', 'startCursor'],
      ] as const) {
        let cursor: string | null = null;
        for (let step = 0; step < 6; step++) {
          const query = page(`${size}: 2${cursor ? `, ${cursorArg}: "${cursor}"` : ''}`);
          const answer = await served(query, { id });
          expect(answer, query).toEqual(await graphqlJs(query, { id }));
          const data = answer.data as { usageBase?: { snapshots: PageOf }; monitoringConfig?: { changes: PageOf } };
          const connection = data.usageBase?.snapshots ?? data.monitoringConfig!.changes;
          cursor = connection.pageInfo[end];
          if (!cursor) break;
        }
      }
    }
  });

  it('shows a newly recorded day and a newly logged change at once (cached pages are per entity version)', async () => {
    const days = `query($id: ID!) { usageBase(id: $id) { snapshots(first: 2) { nodes { date } } } }`;
    expect((await graphql(days, { id: base.id })).data.usageBase.snapshots.nodes[0].date).toBe('2026-11-20');
    await recordDays(app, base.id, ['2026-11-21']);
    expect((await graphql(days, { id: base.id })).data.usageBase.snapshots.nodes.map((d: { date: string }) => d.date)).toEqual([
      '2026-11-21',
      '2026-11-20',
    ]);

    const changes = `query($id: ID!) { monitoringConfig(id: $id) { changes(first: 1) { nodes { recordId } } } }`;
    expect((await graphql(changes, { id: config.id })).data.monitoringConfig.changes.nodes[0].recordId).toBe(change(4).recordId);
    await appendChanges(app.running.services.dataSource, config.id, [change(5)]);
    expect((await graphql(changes, { id: config.id })).data.monitoringConfig.changes.nodes[0].recordId).toBe(change(5).recordId);
  });

  it('leaves introspection to graphql-js and refuses variables that do not fit with a 400, as graphql-js does', async () => {
    const schema = await graphql('{ __schema { queryType { name } } __typename }');
    expect(schema.data).toEqual({ __schema: { queryType: { name: 'Query' } }, __typename: 'Query' });
    const missing = await graphql('query($id: ID!) { usageBase(id: $id) { restId } }', {});
    expect(missing.status).toBe(400);
    expect(missing.data).toBeUndefined();
    expect(codesOf(missing)).toEqual(['invalid_request']);
    const wrongType = await graphql('query($n: Int) { usageBases(first: $n) { totalCount } }', { n: 'two' });
    expect(wrongType.status).toBe(400);
    expect(codesOf(wrongType)).toEqual(['invalid_request']);
  });

  it('writes multi-byte text and escapes as graphql-js does', async () => {
    const query = `query($id: ID!) { monitoringConfig(id: $id) { changes(first: 5) { nodes { userName after } } } }`;
    const res = await graphql(query, { id: config.id });
    expect(res.text).toContain('naïve café ✓ 𝄞 \\"quoted\\" \\\\ back');
    expect(res.data).toEqual((await graphqlJs(query, { id: config.id })).data);
  });
});
