import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamClient } from '../../src/upstream/client.js';
import { resetRateLimiters } from '../../src/upstream/rate-limiter.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { webhookMac } from '../../src/upstream/webhook-mac.js';
import { webhookPayloadPageSchema, webhookSchema } from '../../src/upstream/webhook-schemas.js';
import { isErrorPayload, type WebhookPayload } from '../../src/upstream/webhook-types.js';
import { startPingReceiver, type PingReceiver } from '../sandbox/webhook-harness.js';
import { failureOf } from '../support/upstream-failure.js';
import { SANDBOX_TOKEN, startSandboxUpstream, type SandboxUpstream } from './sandbox-upstream.js';

let upstream: SandboxUpstream | undefined;
let receiver: PingReceiver | undefined;

beforeEach(() => resetRateLimiters());
afterEach(async () => {
  upstream?.sandbox.close();
  await upstream?.close();
  await receiver?.close();
  upstream = receiver = undefined;
});

/** The sandbox's own rate limit is off: these tests are about the webhook calls, not pacing. */
async function setUp(options: Partial<SandboxOptions> = {}) {
  upstream = await startSandboxUpstream({ rateLimitPerSecond: 0, webhooks: { pingDelayMs: 10 }, ...options });
  const client = new UpstreamClient({
    baseUrl: upstream.baseUrl,
    token: SANDBOX_TOKEN,
    requestsPerSecond: 50,
    retryBaseDelayMs: 5,
    lockoutMs: 300,
  });
  const base = upstream.sandbox.store.addBase({
    name: 'Client hooks',
    tables: [
      {
        name: 'Tasks',
        fields: [
          { name: 'Title', type: 'singleLineText' },
          { name: 'Done', type: 'checkbox', options: { color: 'greenBright', icon: 'check' } },
        ],
      },
    ],
  });
  const table = base.tables[0];
  return { client, upstream, baseId: base.id, table, titleId: table.fields[0].id };
}

const tableData = { options: { filters: { dataTypes: ['tableData' as const] } } };

describe(`${UpstreamClient.name} webhooks`, () => {
  it('creates, lists, refreshes, toggles notifications and deletes a webhook', async () => {
    const { client, baseId } = await setUp();
    const created = await client.createWebhook(baseId, { specification: tableData });
    expect(created).toEqual({ id: expect.stringMatching(/^ach/), macSecretBase64: expect.any(String), expirationTime: expect.any(String) });

    const [listed] = await client.listWebhooks(baseId);
    expect(listed).toMatchObject({
      id: created.id,
      isHookEnabled: true,
      areNotificationsEnabled: false,
      cursorForNextPayload: 1,
      notificationUrl: null,
      lastNotificationResult: null,
      lastSuccessfulNotificationTime: null,
      expirationTime: created.expirationTime,
      specification: tableData,
    });
    expect(listed).not.toHaveProperty('macSecretBase64');

    const refreshed = await client.refreshWebhook(baseId, created.id);
    expect(Date.parse(refreshed.expirationTime!)).toBeGreaterThanOrEqual(Date.parse(created.expirationTime!));

    await client.setWebhookNotifications(baseId, created.id, true);
    expect((await client.listWebhooks(baseId))[0].areNotificationsEnabled).toBe(true);
    await client.setWebhookNotifications(baseId, created.id, false);
    expect((await client.listWebhooks(baseId))[0].areNotificationsEnabled).toBe(false);

    await client.deleteWebhook(baseId, created.id);
    expect(await client.listWebhooks(baseId)).toEqual([]);
    const missing = await failureOf(client.deleteWebhook(baseId, created.id));
    expect(missing.upstreamStatus).toBe(404);
  });

  it('reads payloads page by page from a cursor', async () => {
    const { client, baseId, table, titleId } = await setUp();
    const { id } = await client.createWebhook(baseId, { specification: tableData });
    const records = await client.createRecords(
      baseId,
      table.id,
      Array.from({ length: 3 }, (_, i) => ({ fields: { Title: `t${i}` } })),
    );
    await client.updateRecords(baseId, table.id, [{ id: records[0].id, fields: { Title: 'renamed' } }]);
    await client.deleteRecords(baseId, table.id, [records[1].id]);

    const first = await client.listWebhookPayloads(baseId, id, { limit: 1 });
    expect(first).toMatchObject({ cursor: 2, mightHaveMore: true });
    const rest = await client.listWebhookPayloads(baseId, id, { cursor: first.cursor });
    expect(rest).toMatchObject({ cursor: 4, mightHaveMore: false });
    const none = await client.listWebhookPayloads(baseId, id, { cursor: rest.cursor });
    expect(none).toEqual({ cursor: 4, mightHaveMore: false, payloads: [] });

    const [created, updated, deleted] = [...first.payloads, ...rest.payloads].map((payload) => payload.changedTablesById?.[table.id]);
    expect(Object.keys(created?.createdRecordsById ?? {})).toEqual(records.map((record) => record.id));
    expect(updated?.changedRecordsById?.[records[0].id].current.cellValuesByFieldId).toEqual({ [titleId]: 'renamed' });
    expect(deleted?.destroyedRecordIds).toEqual([records[1].id]);
    expect(first.payloads[0].actionMetadata.sourceMetadata?.user?.permissionLevel).toBe('create');

    const refused = await failureOf(client.listWebhookPayloads(baseId, id, { limit: 51 }));
    expect(refused).toMatchObject({ upstreamStatus: 422, upstreamType: 'INVALID_REQUEST_UNKNOWN' });
  });

  it('receives a ping the receiver can verify with webhookMac, then fetches what changed', async () => {
    const { client, baseId, table } = await setUp();
    receiver = await startPingReceiver();
    const { id, macSecretBase64 } = await client.createWebhook(baseId, { notificationUrl: receiver.url, specification: tableData });
    await receiver.waitFor(1);
    await client.createRecords(baseId, table.id, [{ fields: { Title: 'pinged' } }]);
    const [, ping] = await receiver.waitFor(2);

    const expected = Buffer.from(webhookMac(macSecretBase64, ping.rawBody));
    const received = Buffer.from(String(ping.headers['x-airtable-content-mac']));
    expect(received.length === expected.length && timingSafeEqual(received, expected)).toBe(true);
    expect(webhookMac('AAAA', ping.rawBody)).not.toBe(String(ping.headers['x-airtable-content-mac']));
    expect(JSON.parse(ping.rawBody.toString('utf8'))).toMatchObject({ base: { id: baseId }, webhook: { id } });

    const { payloads } = await client.listWebhookPayloads(baseId, id);
    expect(payloads).toHaveLength(1);
    expect(isErrorPayload(payloads[0])).toBe(false);
  });

  it('refuses to refresh a webhook in its error state, whose last payload is an error payload', async () => {
    const { client, baseId, table, upstream } = await setUp();
    const doneId = table.fields[1].id;
    const { id } = await client.createWebhook(baseId, {
      specification: { options: { filters: { dataTypes: ['tableData'], watchDataInFieldIds: [doneId] } } },
    });
    upstream.sandbox.store.deleteField(baseId, table.id, doneId);

    const { payloads } = await client.listWebhookPayloads(baseId, id);
    expect(payloads.filter(isErrorPayload).map((payload) => payload.code)).toEqual(['INVALID_FILTERS']);
    expect((await client.listWebhooks(baseId))[0].isHookEnabled).toBe(false);
    expect((await failureOf(client.refreshWebhook(baseId, id))).upstreamStatus).toBe(422);
  });
});

describe('webhook response schemas', () => {
  it('keep keys they do not know and accept sources and codes added later', () => {
    const payload = {
      timestamp: '2026-03-02T09:00:00.000Z',
      baseTransactionNumber: 7,
      payloadFormat: 'v0',
      actionMetadata: { source: 'aiAgent', sourceMetadata: { agentId: 'agt1' } },
      changedTablesById: { tbl1: { changedRecordsById: { rec1: { current: { cellValuesByFieldId: {} }, extra: 1 } }, somethingNew: true } },
      newTopLevelKey: { a: 1 },
    };
    const page = webhookPayloadPageSchema.parse({ cursor: 8, mightHaveMore: false, payloads: [payload] });
    const parsed = page.payloads[0] as WebhookPayload & Record<string, unknown>;
    expect(parsed.newTopLevelKey).toEqual({ a: 1 });
    expect(parsed.actionMetadata).toEqual(payload.actionMetadata);
    expect(parsed.changedTablesById?.tbl1).toEqual(payload.changedTablesById.tbl1);

    const hook = webhookSchema.parse({
      id: 'ach1',
      areNotificationsEnabled: true,
      cursorForNextPayload: 1,
      isHookEnabled: true,
      notificationUrl: null,
      specification: { options: { filters: { dataTypes: ['tableData'] } } },
    });
    expect(hook).toMatchObject({ lastNotificationResult: null, lastSuccessfulNotificationTime: null });
  });

  it('computes the MAC as the platform documents it', () => {
    const secret = Buffer.alloc(32, 7).toString('base64');
    const body = '{"base":{"id":"app1"},"webhook":{"id":"ach1"},"timestamp":"2026-03-02T09:00:00.000Z"}';
    const hex = createHmac('sha256', Buffer.alloc(32, 7)).update(body, 'ascii').digest('hex');
    expect(webhookMac(secret, body)).toBe(`hmac-sha256=${hex}`);
    expect(webhookMac(secret, Buffer.from(body))).toBe(`hmac-sha256=${hex}`);
  });
});
