import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql } from './support/graphql-client.js';
import { expectCompleteWalk, PAGE_INFO, type Page as GraphqlPage } from './support/pages.js';
import { asRestDay, pastDays, recordDays, SNAPSHOT_DAY_FIELDS } from './support/shapes.js';

let app: TestApp;
let graphql: Graphql;
let theirs: Graphql;
let base: { id: string; baseId: string };
/** 75 counted days, newest first, every third day (the gaps are days without a count). */
const days = pastDays(75, '2026-11-20', 3);

beforeAll(async () => {
  app = await startTestApp();
  graphql = createGraphql(app.url, app.apiKey);
  theirs = createGraphql(app.url, app.other.apiKey);
  base = await trackBase(app.http, DEMO_BASES.catalog);
  await recordDays(app, base.id, days);
});
afterAll(() => app.close());

const SNAPSHOTS = `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String, $from: LocalDate, $to: LocalDate) {
  usageBase(id: $id) { snapshots(first: $first, after: $after, last: $last, before: $before, from: $from, to: $to) {
    edges { cursor node { ${SNAPSHOT_DAY_FIELDS} } } ${PAGE_INFO} } } }`;

type Page = GraphqlPage<{ date: string; tables: unknown[]; totals: unknown }>;

async function snapshots(args: Record<string, unknown>, client = graphql): Promise<Page> {
  const res = await client(SNAPSHOTS, { id: base.id, ...args });
  expect(res.errors, JSON.stringify(args)).toBeUndefined();
  return res.data.usageBase.snapshots;
}

/** Every day REST returns, walking its own cursor. */
async function restDays(query = ''): Promise<unknown[]> {
  const all: unknown[] = [];
  let cursor = '';
  do {
    const res = await app.http('GET', `/usage/bases/${base.id}/snapshots?limit=20${query}${cursor && `&cursor=${cursor}`}`);
    all.push(...res.body.days);
    cursor = res.body.nextCursor ?? '';
  } while (cursor);
  return all;
}

describe('UsageBase.snapshots (Relay Cursor Connections)', () => {
  it('walks forward with first/after through the same days as REST, in REST order, with exact pageInfo', async () => {
    const seen: unknown[] = [];
    const pages: Page[] = [];
    let after: string | null = null;
    do {
      const page = await snapshots({ first: 20, after });
      pages.push(page);
      seen.push(...page.edges.map((e) => asRestDay(e.node)));
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(await restDays());
    expectCompleteWalk(pages, [20, 20, 20, 15]);
  });

  it('walks backward with last/before through the same days, each page in REST order', async () => {
    const pages: Page[] = [];
    let before: string | null = null;
    do {
      const page = await snapshots({ last: 20, before });
      pages.unshift(page);
      before = page.pageInfo.hasPreviousPage ? page.pageInfo.startCursor : null;
    } while (before);
    expect(pages.flatMap((p) => p.edges.map((e) => asRestDay(e.node)))).toEqual(await restDays());
    expectCompleteWalk(pages, [15, 20, 20, 20]);
  });

  it('pages within from/to in both directions, as REST bounds them', async () => {
    const bounds = { from: days[60], to: days[10] };
    const rest = (await restDays(`&from=${bounds.from}&to=${bounds.to}`)).map((d) => (d as { date: string }).date);
    expect(rest).toEqual(days.slice(10, 61));
    const forward = await snapshots({ ...bounds, first: 100 });
    expect(forward.edges.map((e) => e.node.date)).toEqual(rest);
    expect(forward.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    const tail = await snapshots({ ...bounds, last: 5 });
    expect(tail.edges.map((e) => e.node.date)).toEqual(rest.slice(-5));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  it('takes after and before together as a window', async () => {
    const all = await snapshots({ first: 100 });
    const after = all.edges[9].cursor;
    const before = all.edges[20].cursor;
    const window = await snapshots({ first: 100, after, before });
    expect(window.edges.map((e) => e.node.date)).toEqual(days.slice(10, 20));
    // The `before` day itself follows the window.
    expect(window.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    const fromEnd = await snapshots({ last: 3, after, before });
    expect(fromEnd.edges.map((e) => e.node.date)).toEqual(days.slice(17, 20));
    expect(fromEnd.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
  });

  it('answers an empty page for first: 0, still telling that items follow', async () => {
    const page = await snapshots({ first: 0 });
    expect(page.edges).toEqual([]);
    expect(page.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null });
  });

  it('keeps cursors opaque', async () => {
    const page = await snapshots({ first: 3 });
    for (const edge of page.edges) expect(edge.cursor).not.toContain(edge.node.date);
  });

  it('takes first and last together as the spec says: first keeps the window’s start, last the end of that', async () => {
    const all = await snapshots({ first: 100 });
    const before = all.edges[30].cursor;
    // Relay's loadPrevious on a fragment whose `first` has a default sends all three.
    const previous = await snapshots({ first: 10, last: 4, before });
    expect(previous.edges.map((e) => e.node.date)).toEqual(days.slice(6, 10));
    expect(previous.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    const whole = await snapshots({ first: 100, last: 100, before });
    expect(whole.edges.map((e) => e.node.date)).toEqual(days.slice(0, 30));
    expect(whole.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    const none = await snapshots({ first: 5, last: 0 });
    expect(none.edges).toEqual([]);
    expect(none.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
  });

  it('counts every day of the connection within from/to, whatever the cursors, and only when asked', async () => {
    const counted = `query($id: ID!, $first: Int, $after: String, $from: LocalDate, $to: LocalDate) {
      usageBase(id: $id) { snapshots(first: $first, after: $after, from: $from, to: $to) { totalCount edges { cursor } } } }`;
    const all = await graphql(counted, { id: base.id, first: 2 });
    expect(all.errors).toBeUndefined();
    expect(all.data.usageBase.snapshots.totalCount).toBe(days.length);
    const after = all.data.usageBase.snapshots.edges[1].cursor;
    expect((await graphql(counted, { id: base.id, first: 2, after })).data.usageBase.snapshots.totalCount).toBe(days.length);
    const bounded = await graphql(counted, { id: base.id, first: 1, from: days[60], to: days[10] });
    expect(bounded.data.usageBase.snapshots.totalCount).toBe(51);
  });

  it('refuses negative or too large counts, and forged or foreign cursors', async () => {
    const other = await trackBase(app.http, DEMO_BASES.marketing);
    await recordDays(app, other.id, days.slice(0, 2));
    const foreign = (await graphql(SNAPSHOTS, { id: other.id, first: 1 })).data.usageBase.snapshots.edges[0].cursor;
    const refused = [
      { first: -1 },
      { last: -1 },
      { first: 101 },
      { last: 101 },
      { after: 'not-a-cursor' },
      { before: Buffer.from('["snapshot-days","x","2026-01-01"]').toString('base64url') },
      { after: foreign },
    ];
    for (const args of refused) {
      const res = await graphql(SNAPSHOTS, { id: base.id, ...args });
      expect(codesOf(res), JSON.stringify(args)).toEqual(['invalid_request']);
    }
    await app.http('DELETE', `/usage/bases/${other.id}`);
  });
});

describe('usageBases (connection over the account’s bases)', () => {
  it('pages forward and backward over the same bases REST lists, and refuses another account’s cursors', async () => {
    const extra = Array.from({ length: 4 }, (_, i) => app.running.sandbox!.store.addBase({ name: `Paging ${i}`, tables: [] }));
    for (const upstream of extra) expect((await app.http('POST', '/usage/bases', { body: { baseId: upstream.id } })).status).toBe(201);
    const restIds = (await app.http('GET', '/usage/bases')).body.bases.map((b: { id: string }) => b.id);
    const query = `query($first: Int, $after: String, $last: Int, $before: String) {
      usageBases(first: $first, after: $after, last: $last, before: $before) { edges { cursor node { restId } } ${PAGE_INFO} } }`;
    const first = await graphql(query, { first: 2 });
    const second = await graphql(query, { first: 10, after: first.data.usageBases.pageInfo.endCursor });
    const ids = (page: { edges: Array<{ node: { restId: string } }> }) => page.edges.map((e) => e.node.restId);
    expect([...ids(first.data.usageBases), ...ids(second.data.usageBases)]).toEqual(restIds);
    expect(second.data.usageBases.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const last = await graphql(query, { last: 2, before: second.data.usageBases.pageInfo.endCursor });
    expect(ids(last.data.usageBases)).toEqual(restIds.slice(-3, -1));
    expect(last.data.usageBases.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    const stolen = await theirs(query, { first: 1, after: first.data.usageBases.pageInfo.endCursor });
    expect(codesOf(stolen)).toEqual(['invalid_request']);
  });
});

describe('node and nodes (Global Object Identification)', () => {
  const NODE = `query($id: ID!) { node(id: $id) { __typename id
    ... on Account { restId name }
    ... on UsageBase { restId baseName }
    ... on SnapshotDay { date totals { recordCount } }
    ... on AirtableBase { restId name }
    ... on AirtableTable { restId name }
    ... on AirtableField { restId name type } } }`;

  it('round-trips every node type', async () => {
    const res = await graphql(
      `query($id: ID!) {
      viewer { __typename id restId name }
      usageBase(id: $id) { __typename id restId baseName latestSnapshot { __typename id date totals { recordCount } } }
      airtableBases { __typename id restId name tables { __typename id restId name fields { __typename id restId name type } } } }`,
      {
        id: base.id,
      },
    );
    expect(res.errors).toBeUndefined();
    const airtableBase = res.data.airtableBases.find((b: { restId: string }) => b.restId === base.baseId);
    const { tables, ...airtableBaseFields } = airtableBase;
    const { fields, ...tableFields } = tables[0];
    const { latestSnapshot, ...usageBaseFields } = res.data.usageBase;
    const objects = [res.data.viewer, usageBaseFields, latestSnapshot, airtableBaseFields, tableFields, fields[0]];
    expect(objects.map((o) => o.__typename)).toEqual([
      'Account',
      'UsageBase',
      'SnapshotDay',
      'AirtableBase',
      'AirtableTable',
      'AirtableField',
    ]);
    for (const object of objects) {
      const node = await graphql(NODE, { id: object.id });
      expect(node.data.node, object.__typename).toEqual(object);
    }
  });

  it('nodes() keeps length and order, with null for missing, forged and other accounts’ ids', async () => {
    const mine = await graphql('query($id: ID!) { viewer { id } usageBase(id: $id) { id latestSnapshot { id } } }', { id: base.id });
    const other = await trackBase(app.other.http, DEMO_BASES.changeLog);
    const their = await theirs('query($id: ID!) { viewer { id } usageBase(id: $id) { id } }', { id: other.id });
    const missingDay = Buffer.from(`SnapshotDay:${base.id}:2020-01-01`).toString('base64url');
    const ids = [
      their.data.usageBase.id,
      mine.data.usageBase.id,
      'forged',
      their.data.viewer.id,
      mine.data.viewer.id,
      missingDay,
      mine.data.usageBase.latestSnapshot.id,
    ];
    const res = await graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(res.errors).toBeUndefined();
    expect(res.data.nodes).toEqual([null, { id: ids[1] }, null, null, { id: ids[4] }, null, { id: ids[6] }]);
  });

  it('isolates accounts: another account sees none of my nodes, snapshots or bases', async () => {
    const mine = await graphql('query($id: ID!) { usageBase(id: $id) { id latestSnapshot { id } } }', { id: base.id });
    for (const id of [mine.data.usageBase.id, mine.data.usageBase.latestSnapshot.id]) {
      const res = await theirs(NODE, { id });
      expect(res.data.node).toBeNull();
      expect(res.errors).toBeUndefined();
    }
    const lookup = await theirs(SNAPSHOTS, { id: mine.data.usageBase.id, first: 1 });
    expect(codesOf(lookup)).toEqual(['not_found']);
  });

  it('refuses more than 100 ids at once', async () => {
    const res = await graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: Array.from({ length: 101 }, () => 'x') });
    expect(codesOf(res)).toEqual(['invalid_request']);
  });
});
