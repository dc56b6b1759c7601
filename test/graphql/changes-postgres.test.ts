import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_URL, admin } from '../support/postgres.js';
import { appendChanges, newestFirst, type LoggedChange } from '../support/change-entries.js';
import { DEMO_BASES, newLogBase, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql, type Graphql, type GraphqlResponse } from './support/graphql-client.js';
import { asRest, CHANGE_FIELDS } from './support/shapes.js';

/**
 * GraphQL's own change SQL on PostgreSQL ($n parameters): windows read oldest first, both keyset bounds, the
 * configs' first pages in one UNION ALL, entries by id. Skipped where no PostgreSQL answers, as postgres.test.ts.
 */
const database = `basewatch_gql_${randomBytes(4).toString('hex')}`;

const available = await admin('SELECT 1');

describe.skipIf(!available)(`MonitoringConfig.changes on PostgreSQL (${ADMIN_URL.replace(/\/\/[^@]*@/, '//')})`, () => {
  let app: TestApp;
  let graphql: Graphql;
  const logged = new Map<string, LoggedChange[]>();

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    app = await startTestApp({ DATABASE_URL: url.toString() });
    app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
    graphql = createGraphql(app.url, app.apiKey);
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    for (let c = 0; c < 3; c += 1) {
      const created = await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId: newLogBase(app) } });
      expect(created.status).toBe(201);
      const changes = Array.from({ length: 40 + c }, (_, i) => ({
        occurredAt: new Date(Date.parse('2026-03-07T00:00:00.000Z') + Math.floor(i / 2) * 600_000).toISOString(),
        eventType: i % 3 ? ('record_update' as const) : ('record_create' as const),
        userEmail: i % 2 ? 'ada@example.com' : 'bob@example.com',
        fieldIds: i % 3 ? ['fldFIELD0000000A'] : [],
      }));
      logged.set(
        created.body.config.id,
        newestFirst(await appendChanges(app.running.services.dataSource, created.body.config.id, changes)),
      );
    }
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  const CHANGES = `query($id: ID!, $filter: ChangeFilter, $first: Int, $after: String, $last: Int, $before: String) {
    monitoringConfig(id: $id) { changes(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
      edges { cursor node { ${CHANGE_FIELDS} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;

  it('walks forward and backward, with filters, through REST’s order', async () => {
    const [configId, expected] = [...logged.entries()][0];
    for (const filter of [undefined, { eventType: 'RECORD_UPDATE', userEmail: 'ada@example.com', fieldId: 'fldFIELD0000000A' }]) {
      const want = expected.filter((c) => !filter || (c.eventType === 'record_update' && c.userEmail === filter.userEmail));
      const forward: unknown[] = [];
      let after: string | null = null;
      do {
        const res: GraphqlResponse = await graphql(CHANGES, { id: configId, filter, first: 6, after });
        expect(res.errors).toBeUndefined();
        const page: { edges: Array<{ node: { restId: string } }>; pageInfo: Record<string, string | boolean | null> } =
          res.data.monitoringConfig.changes;
        forward.push(...page.edges.map((e) => asRest(e.node)));
        after = page.pageInfo.hasNextPage ? (page.pageInfo.endCursor as string) : null;
      } while (after);
      expect(forward).toEqual(want);
      const backward: unknown[] = [];
      let before: string | null = null;
      do {
        const res: GraphqlResponse = await graphql(CHANGES, { id: configId, filter, last: 6, before });
        expect(res.errors).toBeUndefined();
        const page: { edges: Array<{ node: { restId: string } }>; pageInfo: Record<string, string | boolean | null> } =
          res.data.monitoringConfig.changes;
        backward.unshift(...page.edges.map((e) => asRest(e.node)));
        before = page.pageInfo.hasPreviousPage ? (page.pageInfo.startCursor as string) : null;
      } while (before);
      expect(backward).toEqual(want);
    }
  });

  it('reads every config’s first page in one statement, counts with filters, and reads changes by id', async () => {
    const res = await graphql(`{ monitoringConfigs(first: 10) { nodes { restId
      newest: changes(first: 3) { nodes { id restId } } oldest: changes(last: 2) { nodes { restId } }
      all: changes(first: 0) { totalCount } ada: changes(first: 0, filter: { userEmail: "ada@example.com", fieldId: "fldFIELD0000000A" }) { totalCount } } } }`);
    expect(res.errors).toBeUndefined();
    for (const node of res.data.monitoringConfigs.nodes) {
      const changes = logged.get(node.restId)!;
      expect(node.all.totalCount).toBe(changes.length);
      expect(node.ada.totalCount).toBe(
        changes.filter((c) => c.userEmail === 'ada@example.com' && c.fieldIds.includes('fldFIELD0000000A')).length,
      );
      expect(node.ada.totalCount).toBeGreaterThan(0);
      const expected = changes.map((c) => c.id);
      expect(node.newest.nodes.map((c: { restId: string }) => c.restId)).toEqual(expected.slice(0, 3));
      expect(node.oldest.nodes.map((c: { restId: string }) => c.restId)).toEqual(expected.slice(-2));
    }
    const ids = res.data.monitoringConfigs.nodes.flatMap((n: { newest: { nodes: Array<{ id: string }> } }) =>
      n.newest.nodes.map((c) => c.id),
    );
    const nodes = await graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    expect(nodes.data.nodes).toEqual(ids.map((id: string) => ({ id })));
  });
});
