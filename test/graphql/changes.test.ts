import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendChanges, newestFirst, type LoggedChange, type SeedChange } from '../support/change-entries.js';
import { DEMO_BASES, newLogBase, upstreamBaseId } from '../support/factories.js';
import type { Http } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql } from './support/graphql-client.js';
import { expectCompleteWalk, PAGE_INFO, type Page as GraphqlPage } from './support/pages.js';
import { asRest, CHANGE_FIELDS } from './support/shapes.js';

const TABLES = ['tblTABLE00000000A', 'tblTABLE00000000B', 'tblTABLE00000000C'];
const USERS = ['ada@example.com', 'bob@example.com', null];
const FIELDS = ['fldFIELD0000000A', 'fldFIELD0000000B', 'fldFIELD0000000C'];
const EVENTS = ['record_update', 'record_create', 'column_update', 'table_create'] as const;

let app: TestApp;
let graphql: Graphql;
let theirs: Graphql;
let config: { id: string };
let logged: LoggedChange[];

beforeAll(async () => {
  app = await startTestApp();
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  graphql = createGraphql(app.url, app.apiKey);
  theirs = createGraphql(app.url, app.other.apiKey);
  config = await newConfig(app.http);
  // 130 changes over a few days, a third of them sharing their instant with another (ties broken by id).
  const changes: SeedChange[] = Array.from({ length: 130 }, (_, i) => {
    const eventType = EVENTS[i % EVENTS.length];
    return {
      occurredAt: new Date(
        Date.parse('2026-03-01T20:00:00.000Z') + Math.floor(i / 3) * 2 * 3_600_000 + (i % 3 === 2 ? 60_000 : 0),
      ).toISOString(),
      eventType,
      tableId: TABLES[i % TABLES.length],
      recordId: eventType === 'table_create' ? null : `rec${String(i).padStart(14, '0')}`,
      fieldIds: eventType === 'record_update' ? [FIELDS[i % FIELDS.length], FIELDS[(i + 1) % FIELDS.length]] : [],
      source: i % 5 === 0 ? 'automation' : 'client',
      userEmail: USERS[i % USERS.length],
      before: i % 2 ? { [FIELDS[0]]: `old ${i}`, nested: { list: [1, null, 'x'] } } : null,
      after: { [FIELDS[0]]: `new ${i}` },
      monitoringRecordId: i % 4 === 0 ? `recMONITOR${String(i).padStart(7, '0')}` : null,
    };
  });
  logged = await appendChanges(app.running.services.dataSource, config.id, changes);
}, 60_000);
afterAll(() => app?.close());

async function newConfig(http: Http): Promise<{ id: string }> {
  const baseId = await upstreamBaseId(http, DEMO_BASES.catalog);
  const res = await http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId: newLogBase(app) } });
  if (res.status !== 201) throw new Error(`creating a config failed: ${res.status} ${res.text}`);
  return res.body.config;
}

/** Every change REST lists for a query, following nextCursor. */
async function restChanges(query: Record<string, string> = {}, configId = config.id): Promise<LoggedChange[]> {
  const all: LoggedChange[] = [];
  let cursor: string | undefined;
  do {
    const params = new URLSearchParams({ ...query, limit: '17', ...(cursor ? { cursor } : {}) });
    const res = await app.http('GET', `/monitoring-config/${configId}/changes?${params}`);
    expect(res.status).toBe(200);
    all.push(...res.body.records);
    cursor = res.body.nextCursor;
  } while (cursor);
  return all;
}

const CHANGES = `query($id: ID!, $filter: ChangeFilter, $first: Int, $after: String, $last: Int, $before: String) {
  monitoringConfig(id: $id) { changes(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { ${CHANGE_FIELDS} } } ${PAGE_INFO} } } }`;

type Page = GraphqlPage<LoggedChange & { restId: string }>;

async function changes(args: Record<string, unknown>, client = graphql, id = config.id): Promise<Page> {
  const res = await client(CHANGES, { id, ...args });
  expect(res.errors, JSON.stringify(args)).toBeUndefined();
  return res.data.monitoringConfig.changes;
}

const restShaped = (page: Page) => page.edges.map((edge) => asRest(edge.node));

/** All pages forward (first/after) or backward (last/before), in REST order, with each page's pageInfo. */
async function walk(direction: 'forward' | 'backward', size: number, filter?: Record<string, unknown>) {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page: Page =
      direction === 'forward'
        ? await changes({ filter, first: size, after: cursor })
        : await changes({ filter, last: size, before: cursor });
    if (direction === 'forward') pages.push(page);
    else pages.unshift(page);
    cursor =
      direction === 'forward'
        ? page.pageInfo.hasNextPage
          ? page.pageInfo.endCursor
          : null
        : page.pageInfo.hasPreviousPage
          ? page.pageInfo.startCursor
          : null;
  } while (cursor);
  return { pages, items: pages.flatMap(restShaped) };
}

describe('MonitoringConfig.changes (Relay Cursor Connections)', () => {
  it('walks forward with first/after through the same changes as REST, in REST order, with exact pageInfo', async () => {
    const rest = await restChanges();
    expect(rest).toEqual(newestFirst(logged));
    const { pages, items } = await walk('forward', 40);
    expect(items).toEqual(rest);
    expectCompleteWalk(pages, [40, 40, 40, 10]);
  });

  it('walks backward with last/before through the same changes, each page in REST order', async () => {
    const { pages, items } = await walk('backward', 40);
    expect(items).toEqual(await restChanges());
    expectCompleteWalk(pages, [10, 40, 40, 40]);
  });

  it('defaults to REST’s 50 newest, and answers first: 0 with an empty page that tells more follow', async () => {
    const page = await changes({});
    expect(restShaped(page)).toEqual((await restChanges()).slice(0, 50));
    const empty = await changes({ first: 0 });
    expect(empty).toEqual({ edges: [], pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null } });
  });

  it('filters as REST does, in both directions', async () => {
    const filters: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ eventType: 'RECORD_UPDATE' }, { eventType: 'record_update' }],
      [
        { kind: 'SCHEMA', tableId: TABLES[1] },
        { kind: 'schema', tableId: TABLES[1] },
      ],
      [
        { userEmail: USERS[0], source: 'CLIENT' },
        { userEmail: USERS[0]!, source: 'client' },
      ],
      [{ fieldId: FIELDS[1] }, { fieldId: FIELDS[1] }],
      [{ recordId: 'rec00000000000004' }, { recordId: 'rec00000000000004' }],
      [
        { from: '2026-03-03', to: '2026-03-05', timezone: 'America/New_York' },
        { from: '2026-03-03', to: '2026-03-05', timezone: 'America/New_York' },
      ],
      [
        { eventType: 'RECORD_UPDATE', tableId: TABLES[0], userEmail: USERS[0], from: '2026-03-04' },
        { eventType: 'record_update', tableId: TABLES[0], userEmail: USERS[0]!, from: '2026-03-04' },
      ],
    ];
    for (const [filter, query] of filters) {
      const rest = await restChanges(query);
      expect(rest.length, JSON.stringify(query)).toBeGreaterThan(0);
      expect(rest.length, JSON.stringify(query)).toBeLessThan(logged.length);
      expect((await walk('forward', 7, filter)).items, JSON.stringify(filter)).toEqual(rest);
      expect((await walk('backward', 7, filter)).items, JSON.stringify(filter)).toEqual(rest);
    }
  });

  it('takes after and before together as a window', async () => {
    const all = await changes({ first: 100 });
    const after = all.edges[9].cursor;
    const before = all.edges[20].cursor;
    const window = await changes({ first: 100, after, before });
    expect(window.edges.map((e) => e.node.restId)).toEqual(all.edges.slice(10, 20).map((e) => e.node.restId));
    // The `before` change itself follows the window.
    expect(window.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    const fromEnd = await changes({ last: 3, after, before });
    expect(fromEnd.edges.map((e) => e.node.restId)).toEqual(all.edges.slice(17, 20).map((e) => e.node.restId));
    expect(fromEnd.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
  });

  it('neither skips nor repeats a change while newer ones arrive between pages', async () => {
    const expected = newestFirst(logged).map((change) => change.id);
    const seen: string[] = [];
    let after: string | null = null;
    let arrivals = 0;
    do {
      const page = await changes({ first: 30, after });
      seen.push(...page.edges.map((e) => e.node.restId));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      const [newer] = await appendChanges(app.running.services.dataSource, config.id, [
        { occurredAt: new Date(Date.parse('2026-04-01T00:00:00.000Z') + ++arrivals * 1000).toISOString() },
      ]);
      logged.push(newer);
    } while (after);
    expect(arrivals).toBe(Math.ceil(expected.length / 30));
    expect(seen).toEqual(expected);
  });

  it('keeps cursors opaque and bound to their config', async () => {
    const page = await changes({ first: 2 });
    for (const edge of page.edges) expect(edge.cursor).not.toContain(edge.node.occurredAt);
    const other = await newConfig(app.http);
    await appendChanges(app.running.services.dataSource, other.id, [{ occurredAt: '2026-03-01T00:00:00.000Z' }]);
    const res = await graphql(CHANGES, { id: other.id, after: page.pageInfo.endCursor });
    expect(codesOf(res)).toEqual(['invalid_request']);
  });

  it('refuses what REST refuses, bad counts and forged cursors', async () => {
    const refused: Array<Record<string, unknown>> = [
      { first: -1 },
      { last: -1 },
      { first: 101 },
      { last: 101 },
      { after: 'not-a-cursor' },
      { before: Buffer.from(JSON.stringify(['changes', config.id, { occurredAt: 'yesterday', id: 1 }])).toString('base64url') },
      {
        after: Buffer.from(JSON.stringify(['changes', config.id, { occurredAt: '2026-03-01T00:00:00.000Z', id: -5 }])).toString(
          'base64url',
        ),
      },
      { filter: { from: '2026-03-05', to: '2026-03-01' } },
      { filter: { from: '2026-02-30' } },
      { filter: { tableId: '' } },
      { filter: { userEmail: 'x'.repeat(256) } },
      { filter: { timezone: 'Mars/Olympus' } },
      { filter: { eventType: 'record_move' } },
      // REST's spelling is not GraphQL's.
      { filter: { eventType: 'record_update' } },
    ];
    for (const args of refused) {
      const res = await graphql(CHANGES, { id: config.id, ...args });
      expect(codesOf(res), JSON.stringify(args)).toEqual(['invalid_request']);
    }
  });
});

describe('Change as a node', () => {
  const NODE = `query($id: ID!) { node(id: $id) { __typename ... on Change { ${CHANGE_FIELDS} monitoringConfig { restId } } } }`;

  it('round-trips through node(id), and resolves its monitoring config', async () => {
    const page = await changes({ first: 3 });
    for (const edge of page.edges) {
      const res = await graphql(NODE, { id: edge.node.id });
      expect(res.errors).toBeUndefined();
      expect(res.data.node).toEqual({ __typename: 'Change', ...edge.node, monitoringConfig: { restId: config.id } });
    }
  });

  it('is null for another account, a missing entry or an entry of another config; their configs are not_found', async () => {
    const [edge] = (await changes({ first: 1 })).edges;
    const theirConfig = await newConfig(app.other.http);
    const missing = Buffer.from(`Change:${config.id}:999999`).toString('base64url');
    const elsewhere = Buffer.from(`Change:${theirConfig.id}:${edge.node.restId}`).toString('base64url');
    const res = await graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [edge.node.id, missing, elsewhere] });
    expect(res.errors).toBeUndefined();
    expect(res.data.nodes).toEqual([{ id: edge.node.id }, null, null]);
    const foreign = await theirs(NODE, { id: edge.node.id });
    expect(foreign.errors).toBeUndefined();
    expect(foreign.data.node).toBeNull();
    expect(codesOf(await theirs(CHANGES, { id: config.id, first: 1 }))).toEqual(['not_found']);
  });
});
