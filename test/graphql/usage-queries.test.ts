import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql } from './support/graphql-client.js';
import { asRestDay, asRestUsageBase, pastDays, recordDays, SNAPSHOT_DAY_FIELDS, USAGE_BASE_FIELDS } from './support/shapes.js';

let app: TestApp;
let graphql: Graphql;
let catalog: { id: string; baseId: string };
let marketing: { id: string; baseId: string };

beforeAll(async () => {
  app = await startTestApp();
  graphql = createGraphql(app.url, app.apiKey);
  catalog = await trackBase(app.http, DEMO_BASES.catalog, { scheduledHour: 6, timezone: 'Europe/Berlin' });
  marketing = await trackBase(app.http, DEMO_BASES.marketing);
  await recordDays(app, catalog.id, pastDays(40, '2026-11-20', 2));
});
afterAll(() => app.close());

describe('GraphQL queries return the same data as REST', () => {
  it('viewer is the account of the key', async () => {
    const res = await graphql('{ viewer { id restId name } }');
    expect(res.status).toBe(200);
    expect(res.data.viewer).toMatchObject({ restId: app.accountId, name: 'first' });
    expect(res.data.viewer.id).not.toContain(app.accountId);
  });

  it('usageBases lists what GET /usage/bases lists, in the same order', async () => {
    const res = await graphql(`{ usageBases { nodes { ${USAGE_BASE_FIELDS} } } }`);
    const rest = await app.http('GET', '/usage/bases');
    expect(res.data.usageBases.nodes.map(asRestUsageBase)).toEqual(rest.body.bases);
    expect(rest.body.bases).toHaveLength(2);
  });

  it('usageBase(id) takes the global id or the REST id', async () => {
    const byRestId = await graphql(`query($id: ID!) { usageBase(id: $id) { ${USAGE_BASE_FIELDS} } }`, { id: catalog.id });
    const byGlobalId = await graphql(`query($id: ID!) { usageBase(id: $id) { ${USAGE_BASE_FIELDS} } }`, {
      id: byRestId.data.usageBase.id,
    });
    expect(byGlobalId.data.usageBase).toEqual(byRestId.data.usageBase);
    expect(asRestUsageBase(byRestId.data.usageBase)).toEqual((await app.http('GET', '/usage/bases')).body.bases[0]);
  });

  it('usageBase(id) answers not_found for unknown ids, ids of other types, and other accounts’ bases', async () => {
    const theirs = await trackBase(app.other.http, DEMO_BASES.catalog);
    const viewer = await graphql('{ viewer { id } }');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', viewer.data.viewer.id, theirs.id]) {
      const res = await graphql('query($id: ID!) { usageBase(id: $id) { id } }', { id });
      expect(res.data.usageBase, id).toBeNull();
      expect(codesOf(res), id).toEqual(['not_found']);
    }
  });

  it('latestSnapshot is the REST latest day, and null before the first count', async () => {
    const res = await graphql(`{ usageBases { nodes { restId latestSnapshot { ${SNAPSHOT_DAY_FIELDS} } } } }`);
    const [withDays, withoutDays] = res.data.usageBases.nodes;
    const rest = await app.http('GET', `/usage/bases/${catalog.id}/snapshots/latest`);
    expect(asRestDay(withDays.latestSnapshot)).toEqual(rest.body.day);
    expect(withDays.latestSnapshot.totals.storageBytes).toBeGreaterThan(2 ** 31);
    expect(withoutDays.restId).toBe(marketing.id);
    expect(withoutDays.latestSnapshot).toBeNull();
  });

  it('snapshots(from, to) pages the days GET …/snapshots returns', async () => {
    const query = `query($id: ID!) { usageBase(id: $id) {
      all: snapshots(first: 100) { nodes { ${SNAPSHOT_DAY_FIELDS} } }
      bounded: snapshots(from: "2026-10-01", to: "2026-11-01", first: 100) { nodes { date } } } }`;
    const res = await graphql(query, { id: catalog.id });
    const rest = await app.http('GET', `/usage/bases/${catalog.id}/snapshots?limit=365`);
    expect(res.data.usageBase.all.nodes.map(asRestDay)).toEqual(rest.body.days);
    const bounded = await app.http('GET', `/usage/bases/${catalog.id}/snapshots?limit=365&from=2026-10-01&to=2026-11-01`);
    expect(res.data.usageBase.bounded.nodes.map((d: { date: string }) => d.date)).toEqual(
      bounded.body.days.map((d: { date: string }) => d.date),
    );
    expect(bounded.body.days.length).toBeGreaterThan(5);
  });

  it('snapshots refuses from after to, like REST', async () => {
    const res = await graphql(
      'query($id: ID!) { usageBase(id: $id) { snapshots(from: "2026-11-02", to: "2026-11-01") { nodes { date } } } }',
      {
        id: catalog.id,
      },
    );
    expect(codesOf(res)).toEqual(['invalid_request']);
    expect((await app.http('GET', `/usage/bases/${catalog.id}/snapshots?from=2026-11-02&to=2026-11-01`)).status).toBe(400);
  });

  it('schedule is what GET …/schedule answers', async () => {
    const res = await graphql(
      'query($id: ID!) { usageBase(id: $id) { schedule { nextRunAt lastRun { startedAt finishedAt status error } } } }',
      {
        id: catalog.id,
      },
    );
    const rest = await app.http('GET', `/usage/bases/${catalog.id}/schedule`);
    expect(res.data.usageBase.schedule).toEqual(rest.body);
    expect(rest.body.nextRunAt).toEqual(expect.any(String));
  });

  it('airtableBases and airtableTables return the helper endpoints’ data', async () => {
    const bases = await graphql('{ airtableBases { id restId name permissionLevel } }');
    const restBases = await app.http('GET', '/airtable/bases');
    expect(
      bases.data.airtableBases.map(({ restId, name, permissionLevel }: Record<string, string>) => ({ id: restId, name, permissionLevel })),
    ).toEqual(restBases.body.bases);
    const tablesQuery = 'query($id: ID!) { airtableTables(baseId: $id) { id restId name primaryFieldId fields { id restId name type } } }';
    const restTables = await app.http('GET', `/airtable/bases/${catalog.baseId}/tables`);
    const asRestTable = (t: { restId: string; name: string; primaryFieldId: string; fields: Array<Record<string, string>> }) => ({
      id: t.restId,
      name: t.name,
      primaryFieldId: t.primaryFieldId,
      fields: t.fields.map(({ restId, name, type }) => ({ id: restId, name, type })),
    });
    const byUpstreamId = await graphql(tablesQuery, { id: catalog.baseId });
    expect(byUpstreamId.data.airtableTables.map(asRestTable)).toEqual(restTables.body.tables);
    const globalId = bases.data.airtableBases.find((b: { restId: string }) => b.restId === catalog.baseId).id;
    const byGlobalId = await graphql(tablesQuery, { id: globalId });
    expect(byGlobalId.data).toEqual(byUpstreamId.data);
  });

  it('airtableTables answers invalid_request for a malformed id and not_found for an unknown base, like REST', async () => {
    const malformed = await graphql('{ airtableTables(baseId: "not-a-base") { id } }');
    expect(codesOf(malformed)).toEqual(['invalid_request']);
    expect((await app.http('GET', '/airtable/bases/not-a-base/tables')).status).toBe(400);
    const unknown = await graphql('{ airtableTables(baseId: "appAAAAAAAAAAAAAA") { id } }');
    expect(codesOf(unknown)).toEqual(['not_found']);
    expect((await app.http('GET', '/airtable/bases/appAAAAAAAAAAAAAA/tables')).status).toBe(404);
  });
});
