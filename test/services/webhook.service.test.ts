import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { AppError } from '../../src/errors.js';
import { DEMO_USER } from '../../src/sandbox/index.js';
import { deliveryLogInput } from '../../src/services/webhooks/delivery-log.input.js';
import { webhookInput } from '../../src/services/webhooks/webhook.input.js';
import { parsed, refusal } from '../support/service-calls.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';
import { createWebhook, type DemoTable, demoTable } from './webhook-flow.js';

/** Webhook subscriptions' rules (WebhookService: input, URL guard, isolation, the base's watch), without HTTP. The routes: test/webhooks/webhooks-api.test.ts. */

let t: TestServices;
let table: DemoTable;
const ALLOWED = 'http://127.0.0.1:65000/hook';
beforeAll(async () => {
  // The pace of upstream requests is not under test here (FAST_UPSTREAM): under a loaded machine the in-process
  // sandbox, which shares this event loop, saw the 5-a-second client's requests bunched and answered 429.
  t = await startTestServices({ ...FAST_UPSTREAM, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:65000,localhost:65001' });
  t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
  table = demoTable(t);
});
afterAll(() => t?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The code and message a call is refused with (a schema's refusal: each issue as `path: message`, as a transport says it). */
async function refused(call: () => unknown): Promise<{ code: string; message: string }> {
  try {
    await call();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    if (error instanceof ZodError) {
      return { code: 'invalid_request', message: error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') };
    }
    throw error;
  }
  return { code: 'accepted', message: '' };
}

const create = (input: Record<string, unknown>, accountId = t.accountId) => createWebhook(t, accountId, input);
const list = (accountId: string, query: Record<string, string> = {}) =>
  t.services.webhooks.list(accountId, parsed(webhookInput.list, query).baseId);

describe('WebhookService.create', () => {
  it('creates a webhook with a whsec_ secret', async () => {
    const { webhook, secret } = await create({
      baseId: table.baseId,
      event: 'record_update',
      tableId: table.tableId,
      columnId: table.fieldIds[1],
      webhookUrl: ALLOWED,
      coalesceUpdates: true,
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook).toMatchObject({
      id: expect.stringMatching(UUID),
      baseId: table.baseId,
      event: 'record_update',
      tableId: table.tableId,
      columnId: table.fieldIds[1],
      webhookUrl: ALLOWED,
      coalesceUpdates: true,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
  });

  it('takes "" or no tableId for table events, and defaults columnId to null and coalesceUpdates to false', async () => {
    const a = await create({ baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    const b = await create({ baseId: table.baseId, event: 'table_delete', tableId: '', webhookUrl: ALLOWED });
    for (const { webhook } of [a, b]) expect(webhook).toMatchObject({ tableId: '', columnId: null, coalesceUpdates: false });
  });

  it.each(['record_update', 'column_update', 'column_delete'])('allows a columnId on %s', async (event) => {
    const { webhook } = await create({
      baseId: table.baseId,
      event,
      tableId: table.tableId,
      columnId: table.fieldIds[0],
      webhookUrl: ALLOWED,
    });
    expect(webhook.columnId).toBe(table.fieldIds[0]);
  });

  it.each<[string, (t: DemoTable) => Record<string, unknown>, RegExp]>([
    ['an unknown event', (d) => ({ baseId: d.baseId, event: 'record_move', tableId: d.tableId }), /event/],
    ['a record event without tableId', (d) => ({ baseId: d.baseId, event: 'record_create' }), /tableId is required/],
    ['a column event with tableId ""', (d) => ({ baseId: d.baseId, event: 'column_create', tableId: '' }), /tableId is required/],
    ['a table event with a tableId', (d) => ({ baseId: d.baseId, event: 'table_update', tableId: d.tableId }), /tableId must be ""/],
    [
      'columnId on record_create',
      (d) => ({ baseId: d.baseId, event: 'record_create', tableId: d.tableId, columnId: d.fieldIds[0] }),
      /columnId/,
    ],
    [
      'columnId on record_delete',
      (d) => ({ baseId: d.baseId, event: 'record_delete', tableId: d.tableId, columnId: d.fieldIds[0] }),
      /columnId/,
    ],
    [
      'columnId on column_create',
      (d) => ({ baseId: d.baseId, event: 'column_create', tableId: d.tableId, columnId: d.fieldIds[0] }),
      /columnId/,
    ],
    ['columnId on a table event', (d) => ({ baseId: d.baseId, event: 'table_update', columnId: d.fieldIds[0] }), /columnId/],
    ['a malformed columnId', (d) => ({ baseId: d.baseId, event: 'record_update', tableId: d.tableId, columnId: 'name' }), /columnId/],
    [
      'a table the base does not have',
      (d) => ({ baseId: d.baseId, event: 'record_create', tableId: 'tblAAAAAAAAAAAAAA' }),
      /no table tblAAAAAAAAAAAAAA/,
    ],
    [
      'a field the table does not have',
      (d) => ({ baseId: d.baseId, event: 'column_delete', tableId: d.tableId, columnId: 'fldAAAAAAAAAAAAAA' }),
      /no field fldAAAAAAAAAAAAAA/,
    ],
    ['an unknown field', (d) => ({ baseId: d.baseId, event: 'table_create', secret: 'mine' }), /secret/],
    [
      'coalesceUpdates that is not a boolean',
      (d) => ({ baseId: d.baseId, event: 'table_create', coalesceUpdates: 'yes' }),
      /coalesceUpdates/,
    ],
    ['a missing webhookUrl', (d) => ({ baseId: d.baseId, event: 'table_create', webhookUrl: undefined }), /webhookUrl/],
  ])('refuses %s as invalid_request', async (_name, input, message) => {
    const answer = await refused(() =>
      create(Object.fromEntries(Object.entries({ webhookUrl: ALLOWED, ...input(table) }).filter(([, v]) => v !== undefined))),
    );
    expect(answer).toEqual({ code: 'invalid_request', message: expect.stringMatching(message) });
  });

  it('is not_found for a base the connection does not see', async () => {
    const answer = await refused(() =>
      create({ webhookUrl: ALLOWED, baseId: 'appAAAAAAAAAAAAAA', event: 'record_create', tableId: table.tableId }),
    );
    expect(answer).toEqual({ code: 'not_found', message: expect.stringMatching(/Upstream base appAAAAAAAAAAAAAA not found/) });
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
  ])('refuses %s', async (_name, webhookUrl) => {
    const answer = await refused(() => create({ baseId: table.baseId, event: 'table_create', webhookUrl }));
    expect(answer).toEqual({ code: 'invalid_request', message: expect.stringMatching(/^webhookUrl /) });
  });

  it.each([
    ['a line break (header injection)', `${ALLOWED}\r\nX-Injected: 1`],
    ['a tab inside the host', 'http://127.0.0.\t1:65000/hook'],
    ['a NUL', `${ALLOWED}\u0000`],
    ['a leading space', ` ${ALLOWED}`],
    ['a line separator', `${ALLOWED}\u2028`],
  ])('refuses %s, even to an allow-listed host', async (_name, webhookUrl) => {
    const answer = await refused(() => create({ baseId: table.baseId, event: 'table_create', webhookUrl }));
    expect(answer).toEqual({ code: 'invalid_request', message: 'webhookUrl must not contain spaces or control characters' });
  });

  it.each([
    ['plain http to an allow-listed host:port', ALLOWED],
    ['a host name resolving to loopback, allow-listed by name', 'http://localhost:65001/hook'],
  ])('accepts %s', async (_name, webhookUrl) => {
    expect(await refusal(() => create({ baseId: table.baseId, event: 'table_create', webhookUrl }))).toBe('accepted');
  });

  it('stores the normal form of the URL given: lower-case host, default port dropped, path encoded', async () => {
    expect(
      await refusal(() => create({ baseId: table.baseId, event: 'table_create', webhookUrl: 'HTTP://LocalHost:65001/a b/../Hook?x=ü' })),
    ).toBe('invalid_request');
    const { webhook } = await create({
      baseId: table.baseId,
      event: 'table_create',
      webhookUrl: 'HTTP://LocalHost:65001/a/../Hook?x=%C3%BC&y=ü',
    });
    expect(webhook.webhookUrl).toBe('http://localhost:65001/Hook?x=%C3%BC&y=%C3%BC');
    expect((await list(t.accountId, { baseId: table.baseId })).find((w) => w.id === webhook.id)!.webhookUrl).toBe(
      'http://localhost:65001/Hook?x=%C3%BC&y=%C3%BC',
    );
  });
});

describe('WebhookService.list', () => {
  it('lists only active webhooks, filtered by baseId', async () => {
    const { accountId } = await t.newAccount();
    const other = demoTable(t, 'Marketing Assets');
    const a = await create({ baseId: table.baseId, event: 'record_create', tableId: table.tableId, webhookUrl: ALLOWED }, accountId);
    const b = await create({ baseId: other.baseId, event: 'table_update', webhookUrl: ALLOWED }, accountId);
    const gone = await create({ baseId: table.baseId, event: 'record_delete', tableId: table.tableId, webhookUrl: ALLOWED }, accountId);
    await t.services.webhooks.remove(accountId, gone.webhook.id);

    expect((await list(accountId)).map((w) => w.id)).toEqual([a.webhook.id, b.webhook.id]);
    expect((await list(accountId, { baseId: other.baseId })).map((w) => w.id)).toEqual([b.webhook.id]);
    expect(await list(accountId, { baseId: 'appNothingHere1234' })).toEqual([]);
    expect(await refusal(() => list(accountId, { baseId: '' }))).toBe('invalid_request');
  });

  it('keeps accounts apart: another account neither sees nor touches a webhook', async () => {
    const mine = await t.newAccount();
    const theirs = await t.newAccount();
    const { webhook } = await create({ baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED }, mine.accountId);
    expect(await list(theirs.accountId)).toEqual([]);
    expect(await list(theirs.accountId, { baseId: table.baseId })).toEqual([]);
    const { webhooks, webhookDeliveries } = t.services;
    for (const [name, call] of [
      ['remove', () => webhooks.remove(theirs.accountId, webhook.id)],
      ['rotate secret', () => webhooks.rotateSecret(theirs.accountId, webhook.id)],
      ['deliveries', () => webhookDeliveries.list(theirs.accountId, webhook.id, parsed(deliveryLogInput.list, {}))],
    ] as const) {
      expect({ name, code: await refusal(call) }).toEqual({ name, code: 'not_found' });
    }
    expect((await list(mine.accountId)).map((w) => w.id)).toEqual([webhook.id]);
  });
});

describe('WebhookService.remove and rotateSecret', () => {
  it('deactivates: then not_found for every change, while the delivery log stays readable', async () => {
    const { webhook } = await create({ baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    const { webhooks, webhookDeliveries } = t.services;
    await webhooks.remove(t.accountId, webhook.id);
    expect(await refusal(() => webhooks.remove(t.accountId, webhook.id))).toBe('not_found');
    expect(await refusal(() => webhooks.rotateSecret(t.accountId, webhook.id))).toBe('not_found');
    expect(await webhookDeliveries.list(t.accountId, webhook.id, parsed(deliveryLogInput.list, {}))).toEqual({ deliveries: [] });
    expect(await refusal(() => webhooks.remove(t.accountId, 'not-a-uuid'))).toBe('not_found');
  });

  it('rotates the secret: a new whsec_ secret each time', async () => {
    const { webhook, secret } = await create({ baseId: table.baseId, event: 'table_create', webhookUrl: ALLOWED });
    const rotated = await t.services.webhooks.rotateSecret(t.accountId, webhook.id);
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await t.services.webhooks.rotateSecret(t.accountId, webhook.id)).not.toBe(rotated);
  });
});

describe('the upstream watch of a webhook’s base', () => {
  it('is created with the first webhook on a base (no monitoring config needed), shared, and removed with the last of any account', async () => {
    // A base of its own: the demo base is watched for other tests of this file.
    const { base: fresh, table: freshTable } = t.sandbox.auth.createUserBase(DEMO_USER.id, 'Watched by webhooks');
    const first = await t.newAccount();
    const second = await t.newAccount();
    const base = { baseId: fresh.id };
    const { watches } = t.services;
    expect(await watches.find(base)).toBeNull();
    const a = await create({ baseId: fresh.id, event: 'table_create', webhookUrl: ALLOWED }, first.accountId);
    const held = await watches.find(base);
    expect(held).toMatchObject({ accountId: first.accountId });
    const b = await create({ baseId: fresh.id, event: 'record_create', tableId: freshTable.id, webhookUrl: ALLOWED }, second.accountId);
    // The second account's webhook is served by the same upstream watch.
    expect((await watches.find(base))!.id).toBe(held!.id);
    await t.services.webhooks.remove(first.accountId, a.webhook.id);
    expect(await watches.find(base)).not.toBeNull();
    await t.services.webhooks.remove(second.accountId, b.webhook.id);
    expect(await watches.find(base)).toBeNull();
  });
});
