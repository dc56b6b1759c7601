import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countLockOf } from '../support/count-lock.js';
import { DEMO_BASES, trackBase, upstreamBaseId } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { codesOf, createGraphql, type Graphql } from './support/graphql-client.js';
import { asRestDay, asRestUsageBase, SNAPSHOT_DAY_FIELDS, USAGE_BASE_FIELDS } from './support/shapes.js';

let app: TestApp;
let graphql: Graphql;

beforeAll(async () => {
  app = await startTestApp();
  // Counts here are about GraphQL, not the upstream's budget: a loaded machine must not turn them into 429s.
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  graphql = createGraphql(app.url, app.apiKey);
});
afterAll(() => app.close());

const CREATE = `mutation($input: CreateUsageBaseInput!) { createUsageBase(input: $input) { clientMutationId usageBase { ${USAGE_BASE_FIELDS} } } }`;
const UPDATE = `mutation($input: UpdateUsageBaseInput!) { updateUsageBase(input: $input) { clientMutationId usageBase { ${USAGE_BASE_FIELDS} } } }`;
const DELETE = 'mutation($input: DeleteUsageBaseInput!) { deleteUsageBase(input: $input) { clientMutationId deletedUsageBaseId } }';
const RUN = `mutation($input: RunUsageCountInput!) { runUsageCount(input: $input) {
  clientMutationId runResult { status tablesProcessed totalRecords totalAttachmentBytes totalFileCount snapshotDate }
  usageBase { restId } snapshot { ${SNAPSHOT_DAY_FIELDS} } } }`;

async function restBase(id: string) {
  return (await app.http('GET', '/usage/bases')).body.bases.find((b: { id: string }) => b.id === id);
}

describe('createUsageBase', () => {
  it('tracks a base as POST /usage/bases does, echoing clientMutationId', async () => {
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    const res = await graphql(CREATE, { input: { clientMutationId: 'c-1', baseId, scheduledHour: 7, timezone: 'europe/berlin' } });
    expect(res.status).toBe(200);
    const { clientMutationId, usageBase } = res.data.createUsageBase;
    expect(clientMutationId).toBe('c-1');
    expect(usageBase).toMatchObject({ baseId, baseName: DEMO_BASES.catalog, scheduledHour: 7, timezone: 'Europe/Berlin' });
    expect(asRestUsageBase(usageBase)).toEqual(await restBase(usageBase.restId));
  });

  it('answers conflict for a base tracked already, like REST', async () => {
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    expect(codesOf(await graphql(CREATE, { input: { baseId } }))).toEqual(['conflict']);
    expect((await app.http('POST', '/usage/bases', { body: { baseId } })).status).toBe(409);
  });

  it('validates with the REST rules: same values refused, same code', async () => {
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.marketing);
    const refused = [
      { baseId: 'not-an-id' },
      { baseId, scheduledHour: 24 },
      { baseId, scheduledHour: -1 },
      { baseId, baseName: '' },
      { baseId, baseName: 'x'.repeat(256) },
      { baseId, baseName: 'tab\there' },
    ];
    for (const input of refused) {
      const res = await graphql(CREATE, { input });
      expect(codesOf(res), JSON.stringify(input)).toEqual(['invalid_request']);
      expect((await app.http('POST', '/usage/bases', { body: input })).status, JSON.stringify(input)).toBe(400);
    }
    // A base the connection does not see: not_found, as over REST.
    expect(codesOf(await graphql(CREATE, { input: { baseId: 'appAAAAAAAAAAAAAA' } }))).toEqual(['not_found']);
    expect((await app.http('POST', '/usage/bases', { body: { baseId: 'appAAAAAAAAAAAAAA' } })).status).toBe(404);
    const badZone = await graphql(CREATE, { input: { baseId, timezone: 'Mars/Olympus' } });
    expect(codesOf(badZone)).toEqual(['invalid_request']);
    expect((await app.http('GET', '/usage/bases')).body.bases).toHaveLength(1);
  });
});

describe('updateUsageBase', () => {
  it('changes what PATCH changes, by global or REST id; an empty input changes nothing', async () => {
    const base = await trackBase(app.http, DEMO_BASES.changeLog);
    const renamed = await graphql(UPDATE, { input: { id: base.id, baseName: 'Renamed', scheduledHour: 23, timezone: 'utc' } });
    const { usageBase } = renamed.data.updateUsageBase;
    expect(usageBase).toMatchObject({ baseName: 'Renamed', scheduledHour: 23, timezone: 'UTC' });
    expect(asRestUsageBase(usageBase)).toEqual(await restBase(base.id));
    const unchanged = await graphql(UPDATE, { input: { clientMutationId: 'same', id: usageBase.id } });
    expect(unchanged.data.updateUsageBase).toEqual({ clientMutationId: 'same', usageBase });
  });

  it('refuses what PATCH refuses, and other accounts’ bases are not_found', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    expect(codesOf(await graphql(UPDATE, { input: { id: base.id, scheduledHour: 99 } }))).toEqual(['invalid_request']);
    expect((await app.http('PATCH', `/usage/bases/${base.id}`, { body: { scheduledHour: 99 } })).status).toBe(400);
    const theirs = await trackBase(app.other.http, DEMO_BASES.marketing);
    expect(codesOf(await graphql(UPDATE, { input: { id: theirs.id, baseName: 'Mine now' } }))).toEqual(['not_found']);
    expect((await app.other.http('GET', '/usage/bases')).body.bases[0].baseName).toBe(DEMO_BASES.marketing);
    await app.http('DELETE', `/usage/bases/${base.id}`);
  });
});

describe('runUsageCount', () => {
  it('counts now and answers the REST run result, with the day REST then shows as latest', async () => {
    const base = await trackBase(app.http, DEMO_BASES.marketing);
    const res = await graphql(RUN, { input: { id: base.id, clientMutationId: 'run-1' } });
    const payload = res.data.runUsageCount;
    expect(payload.clientMutationId).toBe('run-1');
    expect(payload.usageBase.restId).toBe(base.id);
    const latest = await app.http('GET', `/usage/bases/${base.id}/snapshots/latest`);
    expect(asRestDay(payload.snapshot)).toEqual(latest.body.day);
    expect(payload.runResult).toEqual({
      status: 'SUCCESS',
      tablesProcessed: latest.body.day.totals.tableCount,
      totalRecords: latest.body.day.totals.recordCount,
      totalAttachmentBytes: latest.body.day.totals.storageBytes,
      totalFileCount: latest.body.day.totals.fileCount,
      snapshotDate: latest.body.day.date,
    });
  });

  it('answers conflict while a count of the base runs, like REST', async () => {
    const base = (await app.http('GET', '/usage/bases')).body.bases[0];
    app.running.sandbox!.faults.update({ latencyMs: 300 });
    const running = app.http('POST', `/usage/bases/${base.id}/run`);
    while (!(await countLockOf(app.running.dataSource, base.id))) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(codesOf(await graphql(RUN, { input: { id: base.id } }))).toEqual(['conflict']);
    expect((await running).status).toBe(200);
    app.running.sandbox!.faults.update({ latencyMs: 0 });
  });
});

describe('deleteUsageBase', () => {
  it('stops tracking as DELETE does, answering the deleted global id', async () => {
    const scratch = app.running.sandbox!.store.addBase({ name: 'Scratch', tables: [] });
    const created = await graphql(CREATE, { input: { baseId: scratch.id } });
    const { id, restId } = created.data.createUsageBase.usageBase;
    const res = await graphql(DELETE, { input: { id, clientMutationId: 'gone' } });
    expect(res.data.deleteUsageBase).toEqual({ clientMutationId: 'gone', deletedUsageBaseId: id });
    expect((await app.http('GET', `/usage/bases/${restId}/schedule`)).status).toBe(404);
    expect(codesOf(await graphql(DELETE, { input: { id } }))).toEqual(['not_found']);
  });
});
