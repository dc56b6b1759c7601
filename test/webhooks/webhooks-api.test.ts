import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createWebhook, demoTable, type DemoTable } from './support/webhook-support.js';

/**
 * The webhook routes over HTTP: status, the nine seed fields, the secret shown once, one 400, 404s, 401. Their rules
 * (input, the URL guard, isolation, the base's watch): test/services/webhook.service.test.ts.
 */

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
  it('answers 201 with the webhook and its whsec_ secret, shown once', async () => {
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

  it('answers refused input with 400 {code, message}, the service’s own and the schema’s alike', async () => {
    const rule = await app.http('POST', '/webhooks', {
      body: { webhookUrl: ALLOWED, baseId: table.baseId, event: 'table_update', tableId: table.tableId },
    });
    expect(rule.status).toBe(400);
    expect(rule.body).toEqual({ code: 'invalid_request', message: expect.stringMatching(/tableId must be ""/) });
    const schema = await app.http('POST', '/webhooks', { body: { webhookUrl: ALLOWED, baseId: table.baseId, event: 'record_move' } });
    expect(schema.status).toBe(400);
    expect(schema.body).toEqual({ code: 'invalid_request', message: expect.stringMatching(/event/) });
    const guard = await app.http('POST', '/webhooks', {
      body: { baseId: table.baseId, event: 'table_create', webhookUrl: `${ALLOWED}\r\nX-Injected: 1` },
    });
    expect(guard.status).toBe(400);
    expect(guard.body).toEqual({ code: 'invalid_request', message: 'webhookUrl must not contain spaces or control characters' });
  });

  it('answers 404 for a base the connection does not see', async () => {
    const res = await app.http('POST', '/webhooks', {
      body: { webhookUrl: ALLOWED, baseId: 'appAAAAAAAAAAAAAA', event: 'record_create', tableId: table.tableId },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: expect.stringMatching(/Upstream base appAAAAAAAAAAAAAA not found/) });
  });
});

describe('GET /webhooks', () => {
  it('lists webhooks in exactly the nine seed fields, filtered by baseId', async () => {
    const { http } = await app.newAccount();
    const other = await demoTable(http, 'Marketing Assets');
    const a = await createWebhook(http, { baseId: table.baseId, event: 'record_create', tableId: table.tableId, webhookUrl: ALLOWED });
    const b = await createWebhook(http, { baseId: other.baseId, event: 'table_update', webhookUrl: ALLOWED });

    const all = await http('GET', '/webhooks');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(['webhooks']);
    expect(all.body.webhooks).toEqual([a.webhook, b.webhook]);
    for (const webhook of all.body.webhooks) expect(Object.keys(webhook).sort()).toEqual([...NINE_FIELDS].sort());
    expect((await http('GET', `/webhooks?baseId=${other.baseId}`)).body.webhooks).toEqual([b.webhook]);
  });

  it('answers 400 for an empty baseId', async () => {
    const res = await app.http('GET', '/webhooks?baseId=');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.any(String), code: 'invalid_request' });
  });

  it('answers another account 404 on a webhook’s paths', async () => {
    const mine = await app.newAccount();
    const theirs = await app.newAccount();
    const { webhook } = await createWebhook(mine.http, { baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    for (const [method, path] of [
      ['DELETE', `/webhooks/${webhook.webhookId}`],
      ['POST', `/webhooks/${webhook.webhookId}/rotate-secret`],
      ['GET', `/webhooks/${webhook.webhookId}/deliveries`],
    ] as const) {
      const res = await theirs.http(method, path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: expect.any(String), code: 'not_found' });
    }
  });

  it('needs an API key', async () => {
    const res = await app.http('GET', '/webhooks', { key: null });
    expect(res.status).toBe(401);
  });
});

describe('DELETE /webhooks/{webhookId} and rotate-secret', () => {
  it('DELETE answers 204, then 404, while the delivery log still answers 200', async () => {
    const { http } = app;
    const { webhook } = await createWebhook(http, { baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    expect((await http('DELETE', `/webhooks/${webhook.webhookId}`)).status).toBe(204);
    expect((await http('DELETE', `/webhooks/${webhook.webhookId}`)).status).toBe(404);
    expect((await http('POST', `/webhooks/${webhook.webhookId}/rotate-secret`)).status).toBe(404);
    const log = await http('GET', `/webhooks/${webhook.webhookId}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body).toEqual({ deliveries: [] });
    expect((await http('DELETE', '/webhooks/not-a-uuid')).status).toBe(404);
  });

  it('rotate-secret answers 200 with exactly the new secret', async () => {
    const { http } = app;
    const { webhook, secret } = await createWebhook(http, { baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    const res = await http('POST', `/webhooks/${webhook.webhookId}/rotate-secret`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['secret']);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(secret);
  });
});
