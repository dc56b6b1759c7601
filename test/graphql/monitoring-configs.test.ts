import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql, type GraphqlResponse } from './support/graphql-client.js';
import { PAGE_INFO } from './support/pages.js';
import { asRest, MONITORING_CONFIG_FIELDS } from './support/shapes.js';

let app: TestApp;
let graphql: Graphql;
let theirs: Graphql;
let catalog: string;
let marketing: string;
let changeLog: string;

beforeAll(async () => {
  app = await startTestApp();
  // The upstream's budget is not what these tests are about: a loaded machine must not turn creates into 429s.
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  graphql = createGraphql(app.url, app.apiKey);
  theirs = createGraphql(app.url, app.other.apiKey);
  [catalog, marketing, changeLog] = await Promise.all(
    [DEMO_BASES.catalog, DEMO_BASES.marketing, DEMO_BASES.changeLog].map((name) => upstreamBaseId(app.http, name)),
  );
});
afterAll(() => app?.close());

const CREATE = `mutation($input: CreateMonitoringConfigInput!) { createMonitoringConfig(input: $input) {
  clientMutationId monitoringConfig { ${MONITORING_CONFIG_FIELDS} } } }`;
const UPDATE = `mutation($input: UpdateMonitoringConfigInput!) { updateMonitoringConfig(input: $input) {
  clientMutationId monitoringConfig { ${MONITORING_CONFIG_FIELDS} } } }`;
const DELETE = `mutation($input: DeleteMonitoringConfigInput!) { deleteMonitoringConfig(input: $input) { clientMutationId deletedMonitoringConfigId } }`;
const ONE = `query($id: ID!) { monitoringConfig(id: $id) { ${MONITORING_CONFIG_FIELDS} } }`;
const LIST = `query($first: Int, $after: String, $last: Int, $before: String) {
  monitoringConfigs(first: $first, after: $after, last: $last, before: $before) { edges { cursor node { ${MONITORING_CONFIG_FIELDS} } } ${PAGE_INFO} } }`;

async function restConfig(id: string) {
  const res = await app.http('GET', `/monitoring-config/${id}`);
  return res.status === 200 ? res.body.config : res.status;
}

/** A new config: each test logs a base into a monitoring base no other test of the file uses (a second is refused). */
async function created(input: Record<string, unknown>) {
  const res = await graphql(CREATE, { input });
  expect(res.errors, JSON.stringify(input)).toBeUndefined();
  return res.data.createMonitoringConfig.monitoringConfig;
}

describe('createMonitoringConfig', () => {
  it('logs a base as POST /monitoring-config does, echoing clientMutationId', async () => {
    const res = await graphql(CREATE, {
      input: {
        clientMutationId: 'm-1',
        baseId: catalog,
        monitoringBaseId: changeLog,
        scope: 'RECORDS_ONLY',
        timezone: 'america/new_york',
        workspaceId: 'wspAAAAAAAAAAAAAA',
      },
    });
    expect(res.errors).toBeUndefined();
    const { clientMutationId, monitoringConfig } = res.data.createMonitoringConfig;
    expect(clientMutationId).toBe('m-1');
    expect(monitoringConfig).toMatchObject({
      baseId: catalog,
      baseName: DEMO_BASES.catalog,
      monitoringBaseId: changeLog,
      monitoringTableName: expect.stringMatching(/^Changes/),
      scope: 'RECORDS_ONLY',
      timezone: 'America/New_York',
      workspaceId: 'wspAAAAAAAAAAAAAA',
    });
    expect(asRest(monitoringConfig)).toEqual(await restConfig(monitoringConfig.restId));
  });

  it('answers conflict for the same base and table, like REST', async () => {
    const first = await created({ baseId: marketing, monitoringBaseId: changeLog });
    const again = { baseId: marketing, monitoringBaseId: changeLog, monitoringTableId: first.monitoringTableId };
    expect(codesOf(await graphql(CREATE, { input: again }))).toEqual(['conflict']);
    expect((await app.http('POST', '/monitoring-config', { body: again })).status).toBe(409);
  });

  it('validates with the REST rules: same values refused, same code', async () => {
    const count = (await app.http('GET', '/monitoring-config')).body.configs.length;
    const refused = [
      { baseId: 'not-an-id', monitoringBaseId: changeLog },
      { baseId: catalog, monitoringBaseId: changeLog, monitoringTableId: 'Changes' },
      { baseId: catalog, monitoringBaseId: changeLog, monitoringTableId: 'tblAAAAAAAAAAAAAA' },
      { baseId: catalog, monitoringBaseId: changeLog, workspaceId: 'workspace' },
    ];
    for (const input of refused) {
      expect(codesOf(await graphql(CREATE, { input })), JSON.stringify(input)).toEqual(['invalid_request']);
      expect((await app.http('POST', '/monitoring-config', { body: input })).status, JSON.stringify(input)).toBe(400);
    }
    for (const input of [
      { baseId: catalog, monitoringBaseId: changeLog, timezone: 'Mars/Olympus' },
      { baseId: catalog, monitoringBaseId: changeLog, scope: 'everything' },
    ]) {
      expect(codesOf(await graphql(CREATE, { input })), JSON.stringify(input)).toEqual(['invalid_request']);
      expect((await app.http('POST', '/monitoring-config', { body: input })).status, JSON.stringify(input)).toBe(400);
    }
    for (const input of [
      { baseId: 'appAAAAAAAAAAAAAA', monitoringBaseId: changeLog },
      { baseId: catalog, monitoringBaseId: 'appAAAAAAAAAAAAAA' },
    ]) {
      expect(codesOf(await graphql(CREATE, { input })), JSON.stringify(input)).toEqual(['not_found']);
      expect((await app.http('POST', '/monitoring-config', { body: input })).status, JSON.stringify(input)).toBe(404);
    }
    expect((await app.http('GET', '/monitoring-config')).body.configs).toHaveLength(count);
  });
});

describe('monitoringConfigs and monitoringConfig', () => {
  it('list the same configs as GET /monitoring-config, in its order, paging both ways', async () => {
    await created({ baseId: changeLog, monitoringBaseId: changeLog, scope: 'SCHEMA_ONLY' });
    await created({ baseId: marketing, monitoringBaseId: marketing });
    const rest = (await app.http('GET', '/monitoring-config')).body.configs;
    expect(rest.length).toBeGreaterThanOrEqual(4);
    const all = await graphql(LIST, { first: 100 });
    expect(all.errors).toBeUndefined();
    expect(all.data.monitoringConfigs.edges.map((e: { node: { restId: string } }) => asRest(e.node))).toEqual(rest);
    const restIds = rest.map((c: { id: string }) => c.id);
    const ids = (res: GraphqlResponse) => res.data.monitoringConfigs.edges.map((e: { node: { restId: string } }) => e.node.restId);
    const head = await graphql(LIST, { first: 2 });
    const tail = await graphql(LIST, { first: 100, after: head.data.monitoringConfigs.pageInfo.endCursor });
    expect([...ids(head), ...ids(tail)]).toEqual(restIds);
    expect(head.data.monitoringConfigs.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    expect(tail.data.monitoringConfigs.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const back = await graphql(LIST, { last: 2, before: tail.data.monitoringConfigs.pageInfo.endCursor });
    expect(ids(back)).toEqual(restIds.slice(-3, -1));
    expect(back.data.monitoringConfigs.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    expect(codesOf(await theirs(LIST, { first: 1, after: head.data.monitoringConfigs.pageInfo.endCursor }))).toEqual(['invalid_request']);
    expect((await theirs(LIST, { first: 100 })).data.monitoringConfigs.edges).toEqual([]);
  });

  it('finds one by global id or REST id, as GET /monitoring-config/{id}; not_found otherwise', async () => {
    const config = await created({ baseId: catalog, monitoringBaseId: marketing });
    const rest = await restConfig(config.restId);
    for (const id of [config.id, config.restId]) {
      const res = await graphql(ONE, { id });
      expect(res.errors).toBeUndefined();
      expect(asRest(res.data.monitoringConfig)).toEqual(rest);
    }
    const usageBaseId = Buffer.from(`UsageBase:${config.restId}`).toString('base64url');
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', usageBaseId]) {
      expect(codesOf(await graphql(ONE, { id })), id).toEqual(['not_found']);
    }
    expect(codesOf(await theirs(ONE, { id: config.id }))).toEqual(['not_found']);
  });

  it('round-trips through node(id); another account gets null', async () => {
    const config = await created({ baseId: marketing, monitoringBaseId: catalog });
    const NODE = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on MonitoringConfig { ${MONITORING_CONFIG_FIELDS} } } }`;
    const mine = await graphql(NODE, {
      ids: [config.id, Buffer.from('MonitoringConfig:00000000-0000-4000-8000-000000000000').toString('base64url')],
    });
    expect(mine.data.nodes).toEqual([{ __typename: 'MonitoringConfig', ...config }, null]);
    expect((await theirs(NODE, { ids: [config.id] })).data.nodes).toEqual([null]);
  });
});

describe('updateMonitoringConfig', () => {
  it('changes what PATCH changes, by global or REST id; an empty input changes nothing', async () => {
    const config = await created({ baseId: changeLog, monitoringBaseId: catalog });
    const res = await graphql(UPDATE, {
      input: { clientMutationId: 'u-1', id: config.id, scope: 'SCHEMA_ONLY', timezone: 'europe/berlin' },
    });
    expect(res.errors).toBeUndefined();
    const updated = res.data.updateMonitoringConfig.monitoringConfig;
    expect(res.data.updateMonitoringConfig.clientMutationId).toBe('u-1');
    expect(updated).toMatchObject({ scope: 'SCHEMA_ONLY', timezone: 'Europe/Berlin' });
    expect(asRest(updated)).toEqual(await restConfig(config.restId));
    const unchanged = await graphql(UPDATE, { input: { id: config.restId } });
    expect(unchanged.data.updateMonitoringConfig).toEqual({ clientMutationId: null, monitoringConfig: updated });
  });

  it('refuses what PATCH refuses; other accounts’ configs are not_found', async () => {
    const config = await created({ baseId: changeLog, monitoringBaseId: marketing });
    expect(codesOf(await graphql(UPDATE, { input: { id: config.id, timezone: 'Mars/Olympus' } }))).toEqual(['invalid_request']);
    expect(codesOf(await graphql(UPDATE, { input: { id: config.id, scope: 'none' } }))).toEqual(['invalid_request']);
    // REST's spelling is not GraphQL's.
    expect(codesOf(await graphql(UPDATE, { input: { id: config.id, scope: 'schema_only' } }))).toEqual(['invalid_request']);
    expect(codesOf(await theirs(UPDATE, { input: { id: config.id, scope: 'ALL' } }))).toEqual(['not_found']);
    expect(await restConfig(config.restId)).toEqual(asRest(config));
  });
});

describe('deleteMonitoringConfig', () => {
  it('deletes as DELETE /monitoring-config/{id} does; a second time, or another account, is not_found', async () => {
    const config = await created({ baseId: catalog, monitoringBaseId: catalog });
    expect(codesOf(await theirs(DELETE, { input: { id: config.id } }))).toEqual(['not_found']);
    const res = await graphql(DELETE, { input: { clientMutationId: 'd-1', id: config.restId } });
    expect(res.data.deleteMonitoringConfig).toEqual({ clientMutationId: 'd-1', deletedMonitoringConfigId: config.id });
    expect(await restConfig(config.restId)).toBe(404);
    expect(codesOf(await graphql(DELETE, { input: { id: config.id } }))).toEqual(['not_found']);
    expect((await graphql(`query($id: ID!) { node(id: $id) { id } }`, { id: config.id })).data.node).toBeNull();
  });
});
