import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER } from '../../src/sandbox/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createWebhook, demoTable, type DemoTable } from './support/webhook-support.js';

let app: TestApp;
let table: DemoTable;
const ALLOWED = 'http://127.0.0.1:65000/hook';
beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:65000,localhost:65001' });
  table = await demoTable(app.http);
});
afterAll(() => app.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NINE_FIELDS = ['webhookId', 'baseId', 'event', 'tableId', 'columnId', 'webhookUrl', 'coalesceUpdates', 'createdAt', 'updatedAt'];

describe('POST /webhooks', () => {
  it('creates a webhook and shows its whsec_ secret once', async () => {
    const { http } = app;
    const res = await http('POST', '/webhooks', {
      body: {
        baseId: table.baseId,
        event: 'record_update',
        tableId: table.tableId,
        columnId: table.fieldIds[1],
        webhookUrl: ALLOWED,
        coalesceUpdates: true,
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['webhook', 'secret']);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(res.body.webhook).toEqual({
      webhookId: expect.stringMatching(UUID),
      baseId: table.baseId,
      event: 'record_update',
      tableId: table.tableId,
      columnId: table.fieldIds[1],
      webhookUrl: ALLOWED,
      coalesceUpdates: true,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const listed = await http('GET', '/webhooks');
    expect(JSON.stringify(listed.body)).not.toContain(res.body.secret.slice(6));
  });

  it('takes "" or no tableId for table events, and defaults columnId to null and coalesceUpdates to false', async () => {
    const { http } = app;
    const a = await createWebhook(http, { baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    const b = await createWebhook(http, { baseId: table.baseId, event: 'table_delete', tableId: '', webhookUrl: ALLOWED });
    for (const { webhook } of [a, b]) expect(webhook).toMatchObject({ tableId: '', columnId: null, coalesceUpdates: false });
  });

  it.each(['record_update', 'column_update', 'column_delete'])('allows a columnId on %s', async (event) => {
    const { http } = app;
    const { webhook } = await createWebhook(http, {
      baseId: table.baseId,
      event,
      tableId: table.tableId,
      columnId: table.fieldIds[0],
      webhookUrl: ALLOWED,
    });
    expect(webhook.columnId).toBe(table.fieldIds[0]);
  });

  it.each<[string, (t: DemoTable) => Record<string, unknown>, RegExp]>([
    ['an unknown event', (t) => ({ baseId: t.baseId, event: 'record_move', tableId: t.tableId }), /event/],
    ['a record event without tableId', (t) => ({ baseId: t.baseId, event: 'record_create' }), /tableId is required/],
    ['a column event with tableId ""', (t) => ({ baseId: t.baseId, event: 'column_create', tableId: '' }), /tableId is required/],
    ['a table event with a tableId', (t) => ({ baseId: t.baseId, event: 'table_update', tableId: t.tableId }), /tableId must be ""/],
    [
      'columnId on record_create',
      (t) => ({ baseId: t.baseId, event: 'record_create', tableId: t.tableId, columnId: t.fieldIds[0] }),
      /columnId/,
    ],
    [
      'columnId on record_delete',
      (t) => ({ baseId: t.baseId, event: 'record_delete', tableId: t.tableId, columnId: t.fieldIds[0] }),
      /columnId/,
    ],
    [
      'columnId on column_create',
      (t) => ({ baseId: t.baseId, event: 'column_create', tableId: t.tableId, columnId: t.fieldIds[0] }),
      /columnId/,
    ],
    ['columnId on a table event', (t) => ({ baseId: t.baseId, event: 'table_update', columnId: t.fieldIds[0] }), /columnId/],
    ['a malformed columnId', (t) => ({ baseId: t.baseId, event: 'record_update', tableId: t.tableId, columnId: 'name' }), /columnId/],
    [
      'a table the base does not have',
      (t) => ({ baseId: t.baseId, event: 'record_create', tableId: 'tblAAAAAAAAAAAAAA' }),
      /no table tblAAAAAAAAAAAAAA/,
    ],
    [
      'a field the table does not have',
      (t) => ({ baseId: t.baseId, event: 'column_delete', tableId: t.tableId, columnId: 'fldAAAAAAAAAAAAAA' }),
      /no field fldAAAAAAAAAAAAAA/,
    ],
    ['an unknown body field', (t) => ({ baseId: t.baseId, event: 'table_create', secret: 'mine' }), /secret/],
    [
      'coalesceUpdates that is not a boolean',
      (t) => ({ baseId: t.baseId, event: 'table_create', coalesceUpdates: 'yes' }),
      /coalesceUpdates/,
    ],
  ])('rejects %s with 400', async (_name, body, message) => {
    const res = await app.http('POST', '/webhooks', { body: { webhookUrl: ALLOWED, ...body(table) } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', message: expect.stringMatching(message) });
  });

  it('answers 404 for a base the connection does not see', async () => {
    const res = await app.http('POST', '/webhooks', {
      body: { webhookUrl: ALLOWED, baseId: 'appAAAAAAAAAAAAAA', event: 'record_create', tableId: table.tableId },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: expect.stringMatching(/Upstream base appAAAAAAAAAAAAAA not found/) });
  });

  it('rejects a missing webhookUrl', async () => {
    const res = await app.http('POST', '/webhooks', { body: { baseId: table.baseId, event: 'table_create' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/webhookUrl/);
  });
});

describe('the webhook URL guard at create', () => {
  it.each([
    ['plain http to a host not allow-listed', 'http://127.0.0.1/hook'],
    ['plain http to an allow-listed host on another port', 'http://127.0.0.1:65002/hook'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['an IPv4-mapped IPv6 loopback', 'https://[::ffff:127.0.0.1]/hook'],
    ['a private address', 'https://10.0.0.1/hook'],
    ['another private range', 'https://192.168.1.20/hook'],
    ['carrier-grade NAT', 'https://100.64.0.1/hook'],
    ['the unspecified address', 'https://0.0.0.0/hook'],
    ['loopback written as a number', 'https://2130706433/hook'],
    ['a unique-local IPv6 address', 'https://[fd12:3456::1]/hook'],
    ['a host name that resolves to loopback', 'https://localhost/hook'],
    ['a metadata host name', 'https://metadata.google.internal/computeMetadata/v1/'],
    ['a URL with credentials', 'https://user:pass@example.com/hook'],
    ['another scheme', 'ftp://example.com/hook'],
    ['no URL at all', 'not a url'],
  ])('rejects %s', async (_name, webhookUrl) => {
    const res = await app.http('POST', '/webhooks', { body: { baseId: table.baseId, event: 'table_create', webhookUrl } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', message: expect.stringMatching(/^webhookUrl /) });
  });

  it.each([
    ['a line break (header injection)', `${ALLOWED}\r\nX-Injected: 1`],
    ['a tab inside the host', 'http://127.0.0.\t1:65000/hook'],
    ['a NUL', `${ALLOWED}\u0000`],
    ['a leading space', ` ${ALLOWED}`],
    ['a line separator', `${ALLOWED}\u2028`],
  ])('rejects %s, even to an allow-listed host', async (_name, webhookUrl) => {
    const res = await app.http('POST', '/webhooks', { body: { baseId: table.baseId, event: 'table_create', webhookUrl } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_request', message: 'webhookUrl must not contain spaces or control characters' });
  });

  it.each([
    ['plain http to an allow-listed host:port', ALLOWED],
    ['a host name resolving to loopback, allow-listed by name', 'http://localhost:65001/hook'],
  ])('accepts %s', async (_name, webhookUrl) => {
    const res = await app.http('POST', '/webhooks', { body: { baseId: table.baseId, event: 'table_create', webhookUrl } });
    expect(res.status).toBe(201);
  });
});

describe('the stored webhook URL', () => {
  it('is the normal form of the URL given: lower-case host, default port dropped, path encoded', async () => {
    const res = await app.http('POST', '/webhooks', {
      body: { baseId: table.baseId, event: 'table_create', webhookUrl: 'HTTP://LocalHost:65001/a b/../Hook?x=ü' },
    });
    expect(res.status).toBe(400);
    const created = await app.http('POST', '/webhooks', {
      body: { baseId: table.baseId, event: 'table_create', webhookUrl: 'HTTP://LocalHost:65001/a/../Hook?x=%C3%BC&y=ü' },
    });
    expect(created.status).toBe(201);
    expect(created.body.webhook.webhookUrl).toBe('http://localhost:65001/Hook?x=%C3%BC&y=%C3%BC');
    const listed = await app.http('GET', `/webhooks?baseId=${table.baseId}`);
    expect(listed.body.webhooks.find((w: { webhookId: string }) => w.webhookId === created.body.webhook.webhookId).webhookUrl).toBe(
      'http://localhost:65001/Hook?x=%C3%BC&y=%C3%BC',
    );
  });
});

describe('GET /webhooks', () => {
  it('lists only active webhooks, in exactly the nine seed fields, filtered by baseId', async () => {
    const { http } = await app.newAccount();
    const other = await demoTable(http, 'Marketing Assets');
    const a = await createWebhook(http, { baseId: table.baseId, event: 'record_create', tableId: table.tableId, webhookUrl: ALLOWED });
    const b = await createWebhook(http, { baseId: other.baseId, event: 'table_update', webhookUrl: ALLOWED });
    const gone = await createWebhook(http, { baseId: table.baseId, event: 'record_delete', tableId: table.tableId, webhookUrl: ALLOWED });
    expect((await http('DELETE', `/webhooks/${gone.webhook.webhookId}`)).status).toBe(204);

    const all = await http('GET', '/webhooks');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['webhooks']);
    expect(all.body.webhooks).toEqual([a.webhook, b.webhook]);
    for (const webhook of all.body.webhooks) expect(Object.keys(webhook).sort()).toEqual([...NINE_FIELDS].sort());

    const filtered = await http('GET', `/webhooks?baseId=${other.baseId}`);
    expect(filtered.body.webhooks).toEqual([b.webhook]);
    expect((await http('GET', '/webhooks?baseId=appNothingHere1234')).body.webhooks).toEqual([]);
  });

  it('answers 400 for an empty baseId', async () => {
    const res = await app.http('GET', '/webhooks?baseId=');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('keeps accounts apart: another account neither sees nor touches a webhook', async () => {
    const mine = await app.newAccount();
    const theirs = await app.newAccount();
    const { webhook } = await createWebhook(mine.http, { baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    expect((await theirs.http('GET', '/webhooks')).body.webhooks).toEqual([]);
    expect((await theirs.http('GET', `/webhooks?baseId=${table.baseId}`)).body.webhooks).toEqual([]);
    for (const [method, path] of [
      ['DELETE', `/webhooks/${webhook.webhookId}`],
      ['POST', `/webhooks/${webhook.webhookId}/rotate-secret`],
      ['GET', `/webhooks/${webhook.webhookId}/deliveries`],
    ] as const) {
      const res = await theirs.http(method, path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await mine.http('GET', '/webhooks')).body.webhooks).toEqual([webhook]);
  });

  it('needs an API key', async () => {
    const res = await app.http('GET', '/webhooks', { key: null });
    expect(res.status).toBe(401);
  });
});

describe('DELETE /webhooks/{webhookId} and rotate-secret', () => {
  it('deactivates: 204, then 404 for every change, while the delivery log stays readable', async () => {
    const { http } = app;
    const { webhook } = await createWebhook(http, { baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    expect((await http('DELETE', `/webhooks/${webhook.webhookId}`)).status).toBe(204);
    expect((await http('DELETE', `/webhooks/${webhook.webhookId}`)).status).toBe(404);
    expect((await http('POST', `/webhooks/${webhook.webhookId}/rotate-secret`)).status).toBe(404);
    expect((await http('GET', `/webhooks/${webhook.webhookId}/deliveries`)).body).toEqual({ deliveries: [] });
    expect((await http('DELETE', '/webhooks/not-a-uuid')).status).toBe(404);
  });

  it('rotates the secret: a new whsec_ secret each time', async () => {
    const { http } = app;
    const { webhook, secret } = await createWebhook(http, { baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    const res = await http('POST', `/webhooks/${webhook.webhookId}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['secret']);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(secret);
  });
});

describe('the upstream watch of a webhook’s base', () => {
  it('is created with the first webhook on a base (no monitoring config needed), shared, and removed with the last of any account', async () => {
    // A base of its own: the demo base is watched for other tests of this file.
    const { base: fresh, table: freshTable } = app.running.sandbox!.auth.createUserBase(DEMO_USER.id, 'Watched by webhooks');
    const first = await app.newAccount();
    const second = await app.newAccount();
    const base = { baseId: fresh.id };
    const watches = app.running.services.watches;
    expect(await watches.find(base)).toBeNull();
    const a = await createWebhook(first.http, { baseId: fresh.id, event: 'table_create', webhookUrl: ALLOWED });
    const held = await watches.find(base);
    expect(held).toMatchObject({ accountId: first.accountId });
    const b = await createWebhook(second.http, { baseId: fresh.id, event: 'record_create', tableId: freshTable.id, webhookUrl: ALLOWED });
    // The second account's webhook is served by the same upstream watch.
    expect((await watches.find(base))!.id).toBe(held!.id);
    await first.http('DELETE', `/webhooks/${a.webhook.webhookId}`);
    expect(await watches.find(base)).not.toBeNull();
    await second.http('DELETE', `/webhooks/${b.webhook.webhookId}`);
    expect(await watches.find(base)).toBeNull();
  });
});
