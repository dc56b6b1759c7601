import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUDIT_APP_ENV, relaxSandboxRateLimit, tableRows } from '../audit/audit-support.js';
import { DEMO_BASES, newLogBase, upstreamBaseId } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { JsonBody } from '../support/json-body.js';
import { codesOf, createGraphql, type Graphql } from './support/graphql-client.js';
import { expectCompleteWalk, PAGE_INFO, type Page } from './support/pages.js';
import { graphqlEnum } from './support/shapes.js';

type Fields = Record<string, unknown>;
type Version = { at: string; eventType: string; source: string; userEmail: string | null; fields: Fields };
type Deleted = { recordId: string; tableId: string; deletedAt: string; deletedBy: string | null; fields: Fields };
type Restore = {
  id: string;
  restId: string;
  status: string;
  create: number;
  update: number;
  progress: { done: number; total: number };
  createdRecordIds: Array<{ deletedRecordId: string; recordId: string }>;
};

const MIRROR = `query($id: ID!) { monitoringConfig(id: $id) { mirror { status seededAt continuousSince tables { tableId tableName recordCount } } } }`;
const RECORD = `query($id: ID!, $recordId: String!, $at: DateTime) { monitoringConfig(id: $id) {
  record(id: $recordId, at: $at) { recordId tableId createdTime deletedAt fields } } }`;
const HISTORY = `query($id: ID!, $recordId: String!, $first: Int, $after: String) { monitoringConfig(id: $id) {
  recordHistory(recordId: $recordId, first: $first, after: $after) {
    edges { cursor node { at eventType source userEmail fields } } ${PAGE_INFO} totalCount } } }`;
const DELETED = `query($id: ID!, $tableId: String, $from: LocalDate, $to: LocalDate, $timezone: TimeZone, $first: Int, $after: String) {
  monitoringConfig(id: $id) { deletedRecords(tableId: $tableId, from: $from, to: $to, timezone: $timezone, first: $first, after: $after) {
    edges { cursor node { recordId tableId deletedAt deletedBy fields } } ${PAGE_INFO} totalCount } } }`;
const SEARCH = `query($id: ID!, $search: String!, $tableId: String, $first: Int) { monitoringConfig(id: $id) {
  mirroredRecords(search: $search, tableId: $tableId, first: $first) { recordId tableId primaryValue } } }`;
const RESTORE_FIELDS =
  'id restId status at tableId create update skippedFieldIds progress { done total } createdRecordIds { deletedRecordId recordId } error createdAt finishedAt';
const RESTORE = `mutation($input: RestoreRecordsInput!) { restoreRecords(input: $input) { clientMutationId restore { ${RESTORE_FIELDS} } } }`;
const NODE = `query($id: ID!) { node(id: $id) { __typename ... on Restore { ${RESTORE_FIELDS} } } }`;

/** Retries the assertions until they hold (the jobs run every 50 ms, the poll every second). */
const eventually = (assertions: () => Promise<void>, timeout = 15_000) => vi.waitFor(assertions, { timeout, interval: 100 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

let app: TestApp;
let graphql: Graphql;
let theirs: Graphql;
let api: SandboxApi;
let baseId: string;
let configId: string;
let configGlobalId: string;
let table: { id: string; primaryFieldId: string };
let primaryName: string;

const record = async (recordId: string, at?: string) => graphql(RECORD, { id: configId, recordId, ...(at ? { at } : {}) });
const currentRecord = async (recordId: string) => (await record(recordId)).data?.monitoringConfig.record;
/** The primary cell of a record upstream (read by field name, as the sandbox lists records by default). */
const upstreamName = async (recordId: string): Promise<unknown> =>
  (await tableRows(api, baseId, table.id)).find((row) => row.id === recordId)?.fields[primaryName];

/** Every page of a forward connection, `first` at a time. */
async function walk<N>(query: string, variables: Record<string, unknown>, pick: (data: JsonBody) => Page<N> & { totalCount: number }) {
  const pages: Array<Page<N> & { totalCount: number }> = [];
  let after: string | null = null;
  do {
    const res = await graphql(query, { ...variables, ...(after ? { after } : {}) });
    expect(res.errors, query).toBeUndefined();
    const page = pick(res.data);
    pages.push(page);
    after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  } while (after && pages.length < 20);
  return pages;
}

async function created(name: string): Promise<string> {
  const res = await api.createRecords(baseId, table.id, [{ [primaryName]: name }], { source: 'client', email: 'ann@example.com' });
  const recordId = res.records[0].id as string;
  await eventually(async () => expect(await currentRecord(recordId)).toBeTruthy());
  return recordId;
}

beforeAll(async () => {
  app = await startTestApp(AUDIT_APP_ENV);
  relaxSandboxRateLimit(app);
  graphql = createGraphql(app.url, app.apiKey);
  theirs = createGraphql(app.url, app.other.apiKey);
  api = sandboxApi(app.url);
  baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
  const res = await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId: newLogBase(app), scope: 'records_only' } });
  expect(res.status).toBe(201);
  configId = res.body.config.id;
  const suppliers = (await api.schema(baseId)).find((t) => t.name === 'Suppliers')!;
  table = suppliers;
  primaryName = suppliers.fields.find((f) => f.id === suppliers.primaryFieldId)!.name;
  await eventually(async () => expect((await graphql(MIRROR, { id: configId })).data?.monitoringConfig.mirror.status).toBe('LIVE'), 20_000);
  configGlobalId = (await graphql('query($id: ID!) { monitoringConfig(id: $id) { id } }', { id: configId })).data.monitoringConfig.id;
}, 60_000);
afterAll(() => app?.close());

describe('MonitoringConfig.mirror', () => {
  it('answers the state of GET …/mirror: live, seeded, every table with its records', async () => {
    const res = await graphql(MIRROR, { id: configGlobalId });
    expect(res.errors).toBeUndefined();
    const mirror = res.data.monitoringConfig.mirror;
    const rest = (await app.http('GET', `/monitoring-config/${configId}/mirror`)).body.mirror;
    expect(mirror).toEqual({ ...rest, status: graphqlEnum(rest.status) });
    expect(mirror.seededAt).toEqual(mirror.continuousSince);
    for (const t of await api.schema(baseId)) {
      expect(mirror.tables).toContainEqual({ tableId: t.id, tableName: t.name, recordCount: (await tableRows(api, baseId, t.id)).length });
    }
  });

  it('names each table’s primary field and fields as the base’s schema does (GraphQL only; REST keeps its three keys)', async () => {
    const res = await graphql(
      `query($id: ID!) { monitoringConfig(id: $id) { mirror { tables { tableId primaryFieldId fields { fieldId name type } } } } }`,
      { id: configId },
    );
    expect(res.errors).toBeUndefined();
    const upstream = await api.schema(baseId);
    expect(res.data.monitoringConfig.mirror.tables).toEqual(
      upstream.map((t) => ({
        tableId: t.id,
        primaryFieldId: t.primaryFieldId,
        fields: t.fields.map((f) => ({ fieldId: f.id, name: f.name, type: f.type })),
      })),
    );
    const rest = (await app.http('GET', `/monitoring-config/${configId}/mirror`)).body.mirror;
    expect(Object.keys(rest.tables[0]).sort()).toEqual(['recordCount', 'tableId', 'tableName']);
  });
});

describe('MonitoringConfig.record and recordHistory', () => {
  it('answers a record as it stood before and after an update, and its versions newest first a page at a time', async () => {
    const beforeCreate = new Date().toISOString();
    await settle();
    const recordId = await created('Graph first');
    await settle();
    const afterCreate = new Date().toISOString();
    await settle();
    await api.updateRecords(baseId, table.id, [{ id: recordId, fields: { [primaryName]: 'Graph second' } }], {
      source: 'publicApi',
      email: 'bob@example.com',
    });
    await eventually(async () => expect((await currentRecord(recordId)).fields[table.primaryFieldId]).toBe('Graph second'));

    const then = await record(recordId, afterCreate);
    expect(then.errors).toBeUndefined();
    expect(then.data.monitoringConfig.record).toMatchObject({ recordId, tableId: table.id, deletedAt: null });
    expect(then.data.monitoringConfig.record.fields[table.primaryFieldId]).toBe('Graph first');
    const rest = (await app.http('GET', `/monitoring-config/${configId}/records/${recordId}`)).body.record;
    const { id: _id, ...restFields } = rest;
    expect(await currentRecord(recordId)).toEqual({ recordId, ...restFields });

    // REST's 404 and 400, as errors with their codes beside a null record.
    const notYet = await record(recordId, beforeCreate);
    expect(codesOf(notYet)).toEqual(['not_found']);
    expect(notYet.data.monitoringConfig).toEqual({ record: null });
    expect(codesOf(await record(recordId, '2000-01-01T00:00:00.000Z'))).toEqual(['invalid_request']);
    const badId = await record('recNOTAVALIDID');
    expect(codesOf(badId)).toEqual(['invalid_request']);
    // Messages name the field's own argument (`id`), not REST's parameter.
    expect(badId.errors?.[0]?.message).toMatch(/^record\.id: /);
    expect(codesOf(await record('recAAAAAAAAAAAAAA'))).toEqual(['not_found']);

    const pages = await walk<Version>(HISTORY, { id: configId, recordId, first: 1 }, (data) => data.monitoringConfig.recordHistory);
    expectCompleteWalk(pages, [1, 1]);
    expect(pages.map((page) => page.totalCount)).toEqual([2, 2]);
    const versions = pages.flatMap((page) => page.edges.map((edge) => edge.node));
    expect(versions.map((v) => [v.eventType, v.source, v.userEmail])).toEqual([
      ['RECORD_UPDATE', 'PUBLIC_API', 'bob@example.com'],
      ['RECORD_CREATE', 'CLIENT', 'ann@example.com'],
    ]);
    const restHistory = (await app.http('GET', `/monitoring-config/${configId}/records/${recordId}/history`)).body.versions;
    expect(versions).toEqual(
      restHistory.map((v: Version) => ({ ...v, eventType: graphqlEnum(v.eventType), source: graphqlEnum(v.source) })),
    );

    const empty = await graphql(HISTORY, { id: configId, recordId, first: 0 });
    expect(empty.data.monitoringConfig.recordHistory).toMatchObject({ edges: [], pageInfo: { hasNextPage: true, hasPreviousPage: false } });
    expect(codesOf(await graphql(HISTORY, { id: configId, recordId, after: 'nonsense' }))).toEqual(['invalid_request']);
    // A cursor of another record's history does not open here.
    const other = await created('Graph other');
    expect(codesOf(await graphql(HISTORY, { id: configId, recordId: other, after: pages[0]!.pageInfo.endCursor }))).toEqual([
      'invalid_request',
    ]);
    expect(codesOf(await graphql(HISTORY, { id: configId, recordId: 'recAAAAAAAAAAAAAA' }))).toEqual(['not_found']);
  });
});

describe('MonitoringConfig.deletedRecords', () => {
  it('lists deleted records with their last values, newest first, a page at a time, filtered by table and days', async () => {
    const first = await created('Gone one');
    const second = await created('Gone two');
    await api.deleteRecords(baseId, table.id, [first, second], { source: 'client', email: 'cy@example.com' });
    await eventually(async () => expect((await currentRecord(second)).deletedAt).not.toBeNull());

    const pages = await walk<Deleted>(
      DELETED,
      { id: configId, tableId: table.id, first: 1 },
      (data) => data.monitoringConfig.deletedRecords,
    );
    expectCompleteWalk(pages, [1, 1]);
    expect(pages.map((page) => page.totalCount)).toEqual([2, 2]);
    const records = pages.flatMap((page) => page.edges.map((edge) => edge.node));
    expect(records.map((r) => r.recordId).sort()).toEqual([first, second].sort());
    for (const r of records) expect(r).toMatchObject({ tableId: table.id, deletedBy: 'cy@example.com' });
    expect(records.find((r) => r.recordId === first)!.fields[table.primaryFieldId]).toBe('Gone one');
    const rest = (await app.http('GET', `/monitoring-config/${configId}/deleted-records?tableId=${table.id}`)).body.records;
    expect(records).toEqual(rest.map(({ id, ...r }: { id: string }) => ({ recordId: id, ...r })));

    const day = records[0]!.deletedAt.slice(0, 10);
    const count = async (variables: Record<string, unknown>) => {
      const res = await graphql(DELETED, { id: configId, ...variables });
      expect(res.errors, JSON.stringify(variables)).toBeUndefined();
      return res.data.monitoringConfig.deletedRecords.totalCount as number;
    };
    expect(await count({ from: day, to: day, timezone: 'UTC' })).toBe(2);
    expect(await count({ from: '2099-01-01' })).toBe(0);
    expect(await count({ tableId: 'tblAAAAAAAAAAAAAA' })).toBe(0);
    expect(codesOf(await graphql(DELETED, { id: configId, from: '2026-02-02', to: '2026-02-01' }))).toEqual(['invalid_request']);
    expect(codesOf(await graphql(DELETED, { id: configId, tableId: 'nope' }))).toEqual(['invalid_request']);
  });
});

describe('restoreRecords', () => {
  it('shows the plan of a dry run, then restores through a job whose progress node(id) shows until done', async () => {
    const target = await created('Graph target');
    const gone = await created('Graph restore me');
    await settle();
    const instant = new Date().toISOString();
    await settle();
    await api.updateRecords(baseId, table.id, [{ id: target, fields: { [primaryName]: 'Overwritten' } }]);
    await api.deleteRecords(baseId, table.id, [gone]);
    await eventually(async () => expect((await currentRecord(gone)).deletedAt).not.toBeNull());
    await eventually(async () => expect((await currentRecord(target)).fields[table.primaryFieldId]).toBe('Overwritten'));

    const input = { configId: configGlobalId, tableId: table.id, recordIds: [gone, target], at: instant };
    const dry = await graphql(RESTORE, { input: { ...input, dryRun: true, clientMutationId: 'dry' } });
    expect(dry.errors).toBeUndefined();
    expect(dry.data.restoreRecords.clientMutationId).toBe('dry');
    const plan: Restore = dry.data.restoreRecords.restore;
    expect(plan).toMatchObject({ status: 'PLANNED', create: 1, update: 1, progress: { done: 0, total: 2 }, createdRecordIds: [] });
    expect((await graphql(NODE, { id: plan.id })).data.node).toBeNull();
    expect(await upstreamName(target)).toBe('Overwritten');

    const started = await graphql(RESTORE, { input });
    expect(started.errors).toBeUndefined();
    const restore: Restore = started.data.restoreRecords.restore;
    expect(restore).toMatchObject({ status: 'PLANNED', create: 1, update: 1 });
    let done: Restore | undefined;
    await eventually(async () => {
      const res = await graphql(NODE, { id: restore.id });
      expect(res.data.node).toMatchObject({
        __typename: 'Restore',
        restId: restore.restId,
        status: 'DONE',
        progress: { done: 2, total: 2 },
      });
      done = res.data.node;
    });
    expect(done!.createdRecordIds).toEqual([{ deletedRecordId: gone, recordId: expect.stringMatching(/^rec/) }]);
    const recreated = done!.createdRecordIds[0]!.recordId;
    expect(await upstreamName(recreated)).toBe('Graph restore me');
    expect(await upstreamName(target)).toBe('Graph target');

    const rest = (await app.http('GET', `/monitoring-config/${configId}/restores/${restore.restId}`)).body.restore;
    const { __typename: _type, id: _global, restId, createdRecordIds, status, ...fields } = done! as Restore & Record<string, unknown>;
    expect(rest).toEqual({
      id: restId,
      status: status.toLowerCase(),
      createdRecordIds: Object.fromEntries(createdRecordIds.map((pair) => [pair.deletedRecordId, pair.recordId])),
      ...fields,
    });
    expect(codesOf(await graphql(RESTORE, { input: { ...input, recordIds: [] } }))).toEqual(['invalid_request']);
  });
});

describe('MonitoringConfig.mirroredRecords', () => {
  it('finds records by primary value (any case) or id prefix as REST does, within 1–50', async () => {
    const quokka = await created('Quokka Supplies');
    const other = await created('quokka tools');
    const res = await graphql(SEARCH, { id: configGlobalId, search: 'QUOKKA' });
    expect(res.errors).toBeUndefined();
    expect(res.data.monitoringConfig.mirroredRecords).toEqual([
      { recordId: quokka, tableId: table.id, primaryValue: 'Quokka Supplies' },
      { recordId: other, tableId: table.id, primaryValue: 'quokka tools' },
    ]);
    const rest = (await app.http('GET', `/monitoring-config/${configId}/records?search=QUOKKA`)).body.records;
    expect(rest.map(({ id, ...r }: { id: string }) => ({ recordId: id, ...r }))).toEqual(res.data.monitoringConfig.mirroredRecords);
    const byId = await graphql(SEARCH, { id: configId, search: quokka, tableId: table.id, first: 1 });
    expect(byId.data.monitoringConfig.mirroredRecords).toEqual([{ recordId: quokka, tableId: table.id, primaryValue: 'Quokka Supplies' }]);
    expect((await graphql(SEARCH, { id: configId, search: 'quokka', first: 1 })).data.monitoringConfig.mirroredRecords).toHaveLength(1);
    for (const variables of [
      { search: '' },
      { search: 'quokka', first: 0 },
      { search: 'quokka', first: 51 },
      { search: 'q', tableId: 'Suppliers' },
    ]) {
      const bad = await graphql(SEARCH, { id: configId, ...variables });
      expect(codesOf(bad), JSON.stringify(variables)).toEqual(['invalid_request']);
      expect(bad.data).toEqual({ monitoringConfig: null });
    }
    const tooMany = await graphql(SEARCH, { id: configId, search: 'quokka', first: 51 });
    expect(tooMany.errors?.[0]?.message).toMatch(/^mirroredRecords\.first: /);
  });
});

describe('another account', () => {
  it('gets not_found for the mirror, its records, history, deleted records and restores, and null for a restore’s node', async () => {
    const recordId = (await tableRows(api, baseId, table.id))[0]!.id;
    for (const [query, variables] of [
      [MIRROR, { id: configId }],
      [RECORD, { id: configGlobalId, recordId }],
      [HISTORY, { id: configId, recordId }],
      [DELETED, { id: configId }],
      [SEARCH, { id: configId, search: 'quokka' }],
    ] as const) {
      const res = await theirs(query, variables);
      expect(codesOf(res), query).toEqual(['not_found']);
      expect(res.data).toEqual({ monitoringConfig: null });
    }
    const viaNode = await theirs('query($id: ID!) { node(id: $id) { ... on MonitoringConfig { mirror { status } } } }', {
      id: configGlobalId,
    });
    expect(viaNode.data).toEqual({ node: null });

    const restore = await graphql(RESTORE, { input: { configId, tableId: table.id, recordIds: [recordId], dryRun: false } });
    expect(restore.errors).toBeUndefined();
    const node = await theirs(NODE, { id: restore.data.restoreRecords.restore.id });
    expect(node.errors).toBeUndefined();
    expect(node.data).toEqual({ node: null });
    const theirRestore = await theirs(RESTORE, { input: { configId, tableId: table.id, recordIds: [recordId] } });
    expect(codesOf(theirRestore)).toEqual(['not_found']);
    expect(theirRestore.data).toBeNull();
  });
});
