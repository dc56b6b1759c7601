import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from '../webhooks/support/receiver.js';
import { verifyStandardWebhook } from '../webhooks/support/standard-webhooks.js';
import {
  allDeliveries,
  change,
  deliveryEnv,
  demoTable,
  eventually,
  feed,
  recordId,
  type DemoTable,
} from '../webhooks/support/webhook-support.js';
import { codesOf, createGraphql, type Graphql, type GraphqlResponse } from './support/graphql-client.js';
import { expectCompleteWalk, PAGE_INFO } from './support/pages.js';
import { asRest, DELIVERY_FIELDS, graphqlEnum, WEBHOOK_FIELDS } from './support/shapes.js';

let app: TestApp;
let receiver: Receiver;
let graphql: Graphql;
let theirs: Graphql;
let table: DemoTable;
let path = 0;
/** Each webhook posts to its own receiver path, so requests never mix. */
const nextUrl = () => receiver.url(`/hook-${++path}`);

beforeAll(async () => {
  receiver = await new Receiver().start();
  app = await startTestApp(deliveryEnv(receiver.port));
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  graphql = createGraphql(app.url, app.apiKey);
  theirs = createGraphql(app.url, app.other.apiKey);
  table = await demoTable(app.http);
});
afterAll(async () => {
  await app?.close();
  await receiver?.stop();
});

const CREATE = `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { clientMutationId secret webhook { ${WEBHOOK_FIELDS} } } }`;
const DELETE = 'mutation($input: DeleteWebhookInput!) { deleteWebhook(input: $input) { clientMutationId deletedWebhookId } }';
const ROTATE = `mutation($input: RotateWebhookSecretInput!) { rotateWebhookSecret(input: $input) { clientMutationId secret webhook { ${WEBHOOK_FIELDS} } } }`;
const RETRY = `mutation($input: RetryWebhookDeliveryInput!) { retryWebhookDelivery(input: $input) {
  clientMutationId delivery { ${DELIVERY_FIELDS} } webhook { restId } } }`;
const LIST = `query($baseId: ID, $first: Int, $after: String, $last: Int, $before: String) {
  webhooks(baseId: $baseId, first: $first, after: $after, last: $last, before: $before) { edges { cursor node { ${WEBHOOK_FIELDS} } } ${PAGE_INFO} } }`;
const DELIVERIES = `query($id: ID!, $first: Int, $after: String, $status: WebhookDeliveryStatus) { node(id: $id) { ... on Webhook {
  deliveries(first: $first, after: $after, status: $status) { edges { cursor node { ${DELIVERY_FIELDS} } } ${PAGE_INFO} } } } }`;

type WebhookNode = { id: string; restId: string; createdAt: string; updatedAt: string };

async function created(input: Record<string, unknown>, client = graphql): Promise<{ webhook: WebhookNode; secret: string }> {
  const res = await client(CREATE, { input: { baseId: table.baseId, webhookUrl: nextUrl(), ...input } });
  expect(res.errors, JSON.stringify(input)).toBeUndefined();
  return res.data.createWebhook;
}

async function restWebhooks(query = '', http = app.http) {
  return (await http('GET', `/webhooks${query}`)).body.webhooks as Array<{ webhookId: string }>;
}

const asRestWebhook = (webhook: WebhookNode) => asRest(webhook, 'webhookId');

describe('createWebhook', () => {
  it('creates as POST /webhooks does, with the secret shown once', async () => {
    const res = await graphql(CREATE, {
      input: {
        clientMutationId: 'w-1',
        baseId: table.baseId,
        event: 'RECORD_UPDATE',
        tableId: table.tableId,
        columnId: table.fieldIds[1],
        webhookUrl: nextUrl(),
        coalesceUpdates: true,
      },
    });
    expect(res.errors).toBeUndefined();
    const { clientMutationId, secret, webhook } = res.data.createWebhook;
    expect(clientMutationId).toBe('w-1');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook).toMatchObject({ event: 'RECORD_UPDATE', tableId: table.tableId, columnId: table.fieldIds[1], coalesceUpdates: true });
    const listed = await restWebhooks();
    expect(listed).toContainEqual(asRestWebhook(webhook));
    const defaults = await created({ event: 'TABLE_CREATE' });
    expect(defaults.webhook).toMatchObject({ tableId: '', columnId: null, coalesceUpdates: false });
    expect(JSON.stringify((await graphql(LIST, { first: 100 })).data)).not.toContain(secret.slice(6));
    for (const { webhook: w } of [res.data.createWebhook, defaults]) await graphql(DELETE, { input: { id: w.id } });
  });

  it('validates with the REST rules: same values refused, same code', async () => {
    const before = await restWebhooks();
    const url = nextUrl();
    const refused = [
      { event: 'record_create' },
      { event: 'column_create', tableId: '' },
      { event: 'table_update', tableId: table.tableId },
      { event: 'record_create', tableId: table.tableId, columnId: table.fieldIds[0] },
      { event: 'record_update', tableId: table.tableId, columnId: 'name' },
      { event: 'record_create', tableId: 'tblAAAAAAAAAAAAAA' },
      { event: 'column_delete', tableId: table.tableId, columnId: 'fldAAAAAAAAAAAAAA' },
      { event: 'table_create', baseId: 'base' },
      { event: 'table_create', webhookUrl: 'ftp://example.com/hook' },
      { event: 'table_create', webhookUrl: 'https://10.0.0.1/hook' },
      { event: 'table_create', webhookUrl: '' },
      { event: 'record_move', tableId: table.tableId },
    ];
    for (const fields of refused) {
      const body = { baseId: table.baseId, webhookUrl: url, ...fields };
      const input = { ...body, event: graphqlEnum(fields.event) };
      expect(codesOf(await graphql(CREATE, { input })), JSON.stringify(fields)).toEqual(['invalid_request']);
      expect((await app.http('POST', '/webhooks', { body })).status, JSON.stringify(fields)).toBe(400);
    }
    const unseen = { baseId: 'appAAAAAAAAAAAAAA', webhookUrl: url, event: 'table_create' };
    expect(codesOf(await graphql(CREATE, { input: { ...unseen, event: 'TABLE_CREATE' } }))).toEqual(['not_found']);
    expect((await app.http('POST', '/webhooks', { body: unseen })).status).toBe(404);
    expect(await restWebhooks()).toEqual(before);
  });
});

describe('webhooks', () => {
  it('lists the same active webhooks as GET /webhooks, in its order, by base, paging both ways', async () => {
    const other = await demoTable(app.http, 'Marketing Assets');
    const made = [
      await created({ event: 'TABLE_CREATE' }),
      await created({ event: 'RECORD_CREATE', tableId: table.tableId }),
      await created({ event: 'TABLE_DELETE', baseId: other.baseId }),
      await created({ event: 'COLUMN_CREATE', tableId: table.tableId }),
    ];
    const rest = await restWebhooks();
    const all = await graphql(LIST, { first: 100 });
    expect(all.data.webhooks.edges.map((e: { node: WebhookNode }) => asRestWebhook(e.node))).toEqual(rest);
    const airtableBase = Buffer.from(`AirtableBase:${table.baseId}`).toString('base64url');
    for (const baseId of [table.baseId, airtableBase]) {
      const byBase = await graphql(LIST, { baseId, first: 100 });
      expect(byBase.data.webhooks.edges.map((e: { node: WebhookNode }) => asRestWebhook(e.node))).toEqual(
        await restWebhooks(`?baseId=${table.baseId}`),
      );
    }
    const ids = (res: GraphqlResponse) => res.data.webhooks.edges.map((e: { node: WebhookNode }) => e.node.restId);
    const head = await graphql(LIST, { first: 1 });
    const tail = await graphql(LIST, { first: 100, after: head.data.webhooks.pageInfo.endCursor });
    expect([...ids(head), ...ids(tail)]).toEqual(rest.map((w) => w.webhookId));
    const back = await graphql(LIST, { last: 2, before: tail.data.webhooks.pageInfo.endCursor });
    expect(ids(back)).toEqual(rest.slice(-3, -1).map((w) => w.webhookId));
    expect(back.data.webhooks.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    // A filter only narrows the account's list: its cursors page the filtered list too (a create payload's edge does).
    const byBaseAfter = await graphql(LIST, { baseId: table.baseId, first: 100, after: head.data.webhooks.pageInfo.endCursor });
    const filtered = (await restWebhooks(`?baseId=${table.baseId}`)).map((w) => w.webhookId);
    expect(ids(byBaseAfter)).toEqual(filtered.filter((id) => id !== rest[0].webhookId));
    expect(codesOf(await theirs(LIST, { first: 1, after: head.data.webhooks.pageInfo.endCursor }))).toEqual(['invalid_request']);
    expect((await theirs(LIST, { first: 100 })).data.webhooks.edges).toEqual([]);
    for (const { webhook } of made) await graphql(DELETE, { input: { id: webhook.id } });
  });

  it('round-trips through node(id); another account, or a deleted webhook, gets null', async () => {
    const { webhook } = await created({ event: 'TABLE_UPDATE' });
    const NODE = `query($id: ID!) { node(id: $id) { __typename ... on Webhook { ${WEBHOOK_FIELDS} } } }`;
    expect((await graphql(NODE, { id: webhook.id })).data.node).toEqual({ __typename: 'Webhook', ...webhook });
    expect((await theirs(NODE, { id: webhook.id })).data.node).toBeNull();
    await graphql(DELETE, { input: { id: webhook.id } });
    expect((await graphql(NODE, { id: webhook.id })).data.node).toBeNull();
  });
});

describe('deleteWebhook', () => {
  it('stops a webhook as DELETE /webhooks/{id} does; a second time, or another account, is not_found', async () => {
    const { webhook } = await created({ event: 'TABLE_CREATE' });
    expect(codesOf(await theirs(DELETE, { input: { id: webhook.id } }))).toEqual(['not_found']);
    const res = await graphql(DELETE, { input: { clientMutationId: 'd-1', id: webhook.restId } });
    expect(res.data.deleteWebhook).toEqual({ clientMutationId: 'd-1', deletedWebhookId: webhook.id });
    expect((await restWebhooks()).map((w) => w.webhookId)).not.toContain(webhook.restId);
    expect(codesOf(await graphql(DELETE, { input: { id: webhook.id } }))).toEqual(['not_found']);
    expect((await app.http('DELETE', `/webhooks/${webhook.restId}`)).status).toBe(404);
  });
});

describe('Webhook.deliveries and retryWebhookDelivery', () => {
  it('pages the delivery log forward as REST lists it, with every attempt', async () => {
    const { webhook } = await created({ event: 'RECORD_CREATE', tableId: table.tableId });
    const records = Array.from({ length: 5 }, recordId);
    await feed(
      app,
      app.accountId,
      table.baseId,
      records.map((r) => change('record_create', { tableId: table.tableId, recordId: r })),
    );
    const rest = await eventually(
      () => allDeliveries(app.http, webhook.restId),
      (d) => d.length === 5 && d.every((x) => x.status === 'succeeded'),
    );
    expect(rest.map((d) => d.status)).toEqual(Array(5).fill('succeeded'));

    const page = async (args: Record<string, unknown>) => {
      const res = await graphql(DELIVERIES, { id: webhook.id, ...args });
      expect(res.errors, JSON.stringify(args)).toBeUndefined();
      return res.data.node.deliveries;
    };
    const first = await page({ first: 2 });
    const second = await page({ first: 2, after: first.pageInfo.endCursor });
    const third = await page({ first: 2, after: second.pageInfo.endCursor });
    const pages = [first, second, third];
    const walked = pages.flatMap((p) => p.edges.map((e: { node: { restId: string } }) => asRest(e.node)));
    expect(walked).toEqual(rest);
    expect(walked[0].attempts).toEqual([expect.objectContaining({ statusCode: 200, error: null })]);
    expectCompleteWalk(pages, [2, 2, 1]);
    // A cursor inside a page continues right after its edge.
    const fromInside = await page({ first: 3, after: first.edges[0].cursor });
    expect(fromInside.edges.map((e: { node: { restId: string } }) => e.node.restId)).toEqual(rest.slice(1, 4).map((d) => d.id));
    const fromSecondInside = await page({ first: 100, after: fromInside.edges[1].cursor });
    expect(fromSecondInside.edges.map((e: { node: { restId: string } }) => e.node.restId)).toEqual(rest.slice(3).map((d) => d.id));
    expect((await page({ status: 'FAILED' })).edges).toEqual([]);
    expect((await page({ first: 0 })).pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null });

    const otherHook = await created({ event: 'TABLE_CREATE' });
    for (const args of [{ first: 101 }, { first: -1 }, { after: 'forged' }, { after: first.pageInfo.endCursor, status: 'SUCCEEDED' }]) {
      expect(codesOf(await graphql(DELIVERIES, { id: webhook.id, ...args })), JSON.stringify(args)).toEqual(['invalid_request']);
    }
    expect(codesOf(await graphql(DELIVERIES, { id: otherHook.webhook.id, after: first.pageInfo.endCursor }))).toEqual(['invalid_request']);
    await graphql(DELETE, { input: { id: otherHook.webhook.id } });
    await graphql(DELETE, { input: { id: webhook.id } });
  });

  it('retries a delivery as POST …/retry does: the same webhook-id is sent again', async () => {
    const url = nextUrl();
    const { webhook } = await created({ event: 'RECORD_DELETE', tableId: table.tableId, webhookUrl: url });
    await feed(app, app.accountId, table.baseId, [change('record_delete', { tableId: table.tableId, recordId: recordId() })]);
    const at = new URL(url).pathname;
    const [sent] = await receiver.waitFor(at, 1);
    const [delivery] = await eventually(
      () => allDeliveries(app.http, webhook.restId),
      (d) => d[0]?.status === 'succeeded',
    );
    expect(codesOf(await theirs(RETRY, { input: { webhookId: webhook.id, deliveryId: delivery.id } }))).toEqual(['not_found']);
    expect(codesOf(await graphql(RETRY, { input: { webhookId: webhook.id, deliveryId: '00000000-0000-4000-8000-000000000000' } }))).toEqual(
      ['not_found'],
    );

    const res = await graphql(RETRY, { input: { clientMutationId: 'r-1', webhookId: webhook.restId, deliveryId: delivery.id } });
    expect(res.errors).toBeUndefined();
    const { clientMutationId, delivery: retried, webhook: owner } = res.data.retryWebhookDelivery;
    expect({ clientMutationId, owner }).toEqual({ clientMutationId: 'r-1', owner: { restId: webhook.restId } });
    expect(retried).toMatchObject({ restId: delivery.id, eventType: 'RECORD_DELETE', payload: delivery.payload });
    const [, again] = await receiver.waitFor(at, 2);
    expect(again!.headers['webhook-id']).toBe(sent!.headers['webhook-id']);
    const [after] = await eventually(
      () => allDeliveries(app.http, webhook.restId),
      (d) => d[0]?.attempts.length === 2 && d[0].status === 'succeeded',
    );
    const viaGraphql = await graphql(DELIVERIES, { id: webhook.id, first: 1 });
    expect(asRest(viaGraphql.data.node.deliveries.edges[0].node)).toEqual(after);
    await graphql(DELETE, { input: { id: webhook.id } });
    expect(codesOf(await graphql(RETRY, { input: { webhookId: webhook.id, deliveryId: delivery.id } }))).toEqual(['not_found']);
  });
});

describe('the upstream failing', () => {
  it('answers the stored webhooks beside an error for airtableBases (the Webhooks page’s query), not data: null', async () => {
    const { webhook } = await created({ event: 'TABLE_CREATE' });
    app.running.sandbox!.faults.update({ errorRate: 1, errorStatus: 503 });
    try {
      const res = await graphql(`{
        webhooks(first: 50) { totalCount nodes { id baseId } }
        airtableBases { id restId name }
        airtableTables(baseId: "${table.baseId}") { id }
      }`);
      expect(res.status).toBe(200);
      expect(res.data.webhooks.nodes).toContainEqual({ id: webhook.id, baseId: table.baseId });
      expect(res.data.airtableBases).toBeNull();
      expect(res.data.airtableTables).toBeNull();
      expect(res.errors!.map((e) => [e.path, e.extensions?.code]).sort()).toEqual([
        [['airtableBases'], 'upstream_error'],
        [['airtableTables'], 'upstream_error'],
      ]);
    } finally {
      app.running.sandbox!.faults.update({ errorRate: 0 });
    }
    await graphql(DELETE, { input: { id: webhook.id } });
  });
});

describe('WebhookDelivery as a Node', () => {
  it('has a global id that node(id) and retryWebhookDelivery take, for this account and active webhooks only', async () => {
    const { webhook } = await created({ event: 'RECORD_CREATE', tableId: table.tableId });
    await feed(app, app.accountId, table.baseId, [change('record_create', { tableId: table.tableId, recordId: recordId() })]);
    const [rest] = await eventually(
      () => allDeliveries(app.http, webhook.restId),
      (d) => d[0]?.status === 'succeeded',
    );
    const listed = (await graphql(DELIVERIES, { id: webhook.id, first: 1 })).data.node.deliveries.edges[0].node;
    const { id } = (
      await graphql(`query($id: ID!) { node(id: $id) { ... on Webhook { deliveries(first: 1) { nodes { id } } } } }`, { id: webhook.id })
    ).data.node.deliveries.nodes[0];
    expect(id).toEqual(expect.any(String));
    expect(id).not.toBe(rest!.id);
    const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on WebhookDelivery { ${DELIVERY_FIELDS} } } }`;
    expect((await graphql(NODE, { id })).data.node).toEqual({ __typename: 'WebhookDelivery', id, ...listed });
    expect((await theirs(NODE, { id })).data.node).toBeNull();
    const retried = await graphql(RETRY, { input: { webhookId: webhook.id, deliveryId: id } });
    expect(retried.data.retryWebhookDelivery.delivery.restId).toBe(rest!.id);
    const other = await created({ event: 'TABLE_CREATE' });
    expect(codesOf(await graphql(RETRY, { input: { webhookId: other.webhook.id, deliveryId: id } }))).toEqual(['not_found']);
    await graphql(DELETE, { input: { id: webhook.id } });
    await graphql(DELETE, { input: { id: other.webhook.id } });
    expect((await graphql(NODE, { id })).data.node).toBeNull();
  });
});

describe('rotateWebhookSecret', () => {
  it('replaces the secret: the next delivery is signed with the new one', async () => {
    const url = nextUrl();
    const { webhook, secret: oldSecret } = await created({ event: 'RECORD_CREATE', tableId: table.tableId, webhookUrl: url });
    expect(codesOf(await theirs(ROTATE, { input: { id: webhook.id } }))).toEqual(['not_found']);
    const res = await graphql(ROTATE, { input: { clientMutationId: 's-1', id: webhook.id } });
    expect(res.errors).toBeUndefined();
    const { clientMutationId, secret, webhook: rotated } = res.data.rotateWebhookSecret;
    expect(clientMutationId).toBe('s-1');
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(oldSecret);
    expect(Date.parse(rotated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(webhook.updatedAt));
    expect((await restWebhooks()).find((w) => w.webhookId === webhook.restId)).toEqual(asRestWebhook(rotated));
    await feed(app, app.accountId, table.baseId, [change('record_create', { tableId: table.tableId, recordId: recordId() })]);
    const [request] = await receiver.waitFor(new URL(url).pathname, 1);
    expect(verifyStandardWebhook(secret, request!.headers, request!.body)).toBe(true);
    await graphql(DELETE, { input: { id: webhook.id } });
    expect(codesOf(await graphql(ROTATE, { input: { id: webhook.id } }))).toEqual(['not_found']);
  });
});
