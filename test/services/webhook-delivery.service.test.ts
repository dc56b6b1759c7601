import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryLogInput } from '../../src/services/webhooks/delivery-log.input.js';
import { asQuery, parsed, refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';
import { Receiver } from '../webhooks/support/receiver.js';
import { verifyStandardWebhook } from '../webhooks/support/standard-webhooks.js';
import {
  allDeliveries,
  change,
  createWebhook,
  deliveryEnv,
  demoTable,
  eventually,
  feed,
  recordId,
  type DemoTable,
} from './webhook-flow.js';

/**
 * Webhook deliveries (the dispatcher, its retries and signatures, the delivery log) on the services, sent to a real
 * receiver (the customer's URL is a boundary of its own). The log's routes: test/webhooks/delivery.test.ts.
 */

let t: TestServices;
let receiver: Receiver;
let table: DemoTable;
let path = 0;
/** Each test has its own receiver path, so their requests never mix. */
const nextPath = () => `/hook-${++path}`;

beforeAll(async () => {
  receiver = await new Receiver().start();
  // Every test adds a webhook on the same base and keeps it: more than the default quota of 10 per base.
  t = await startTestServices(deliveryEnv(receiver.port, { MAX_WEBHOOKS_PER_BASE: '100' }));
  table = demoTable(t);
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

/** A webhook of the first test account (the upstream allows 10 webhooks per base: one watch per account and base). */
async function webhookOn(at: string, body: Record<string, unknown> = {}) {
  const account = { accountId: t.accountId };
  const created = await createWebhook(t, account.accountId, {
    baseId: table.baseId,
    event: 'record_update',
    tableId: table.tableId,
    webhookUrl: receiver.url(at),
    ...body,
  });
  return { ...account, ...created, webhookId: created.webhook.id };
}

const update = (record: string, before: Record<string, unknown>, after: Record<string, unknown>) =>
  change('record_update', { tableId: table.tableId, recordId: record, fieldIds: Object.keys(after).sort(), before, after });

describe('a delivery', () => {
  it('POSTs the event JSON signed per Standard Webhooks, verified by an independent check', async () => {
    const at = nextPath();
    const { accountId, webhookId, secret } = await webhookOn(at);
    const record = recordId();
    const [f1] = table.fieldIds;
    await feed(t, accountId, table.baseId, [update(record, { [f1!]: 'old' }, { [f1!]: 'new' })]);

    const [request] = await receiver.waitFor(at, 1);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(verifyStandardWebhook(secret, request!.headers, request!.body)).toBe(true);
    expect(verifyStandardWebhook(secret, request!.headers, request!.body.replace('new', 'NEW'))).toBe(false);
    expect(request!.json).toEqual({
      type: 'record_update',
      id: request!.headers['webhook-id'],
      timestamp: expect.stringMatching(/Z$/),
      data: {
        webhookId,
        baseId: table.baseId,
        tableId: table.tableId,
        tableName: 'Products',
        recordId: record,
        fieldIds: [f1],
        source: 'client',
        user: { email: 'ada@example.com', name: 'Ada' },
        previous: { [f1!]: 'old' },
        current: { [f1!]: 'new' },
        changeCount: 1,
      },
    });
    const [logged] = await eventually(
      () => allDeliveries(t, accountId, webhookId),
      (d) => d[0]?.status === 'succeeded',
    );
    expect(logged).toMatchObject({ id: request!.headers['webhook-id'], status: 'succeeded', nextAttemptAt: null });
  });

  it('fires a columnId webhook only when that field changed', async () => {
    const at = nextPath();
    const [f1, f2] = table.fieldIds;
    const { accountId } = await webhookOn(at, { columnId: f2 });
    const record = recordId();
    await feed(t, accountId, table.baseId, [
      update(record, { [f1!]: 1 }, { [f1!]: 2 }),
      update(record, { [f2!]: 'a' }, { [f2!]: 'b' }),
      change('record_create', { tableId: table.tableId, recordId: recordId(), after: { [f2!]: 'x' } }),
    ]);
    const requests = await receiver.waitFor(at, 1);
    await settle();
    expect(receiver.at(at)).toHaveLength(1);
    expect(requests[0]!.json.data.current).toEqual({ [f2!]: 'b' });
  });

  it('keeps its webhook-id across retries, which follow the schedule, and records every attempt', async () => {
    const at = nextPath();
    const { accountId, webhookId } = await webhookOn(at);
    receiver.answer = (request) => (request.path === at && receiver.at(at).indexOf(request) < 2 ? { status: 503 } : { status: 200 });
    await feed(t, accountId, table.baseId, [update(recordId(), {}, { [table.fieldIds[0]!]: 1 })]);

    const requests = await receiver.waitFor(at, 3);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual(Array(3).fill(requests[0]!.headers['webhook-id']));
    const [delivery] = await eventually(
      () => allDeliveries(t, accountId, webhookId),
      (d) => d[0]?.status === 'succeeded',
    );
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([503, 503, 200]);
    expect(delivery!.attempts[0]!.error).toMatch(/503/);
    expect(delivery!.attempts[2]!.error).toBeNull();
    const times = delivery!.attempts.map((a) => a.attemptedAt.getTime());
    // The schedule is 100 ms, 200 ms, …: no retry comes before its delay.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(100);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(200);
  });

  it('honours Retry-After when it asks for longer than the schedule', async () => {
    const at = nextPath();
    const { accountId, webhookId } = await webhookOn(at);
    receiver.answer = (request) =>
      request.path === at && receiver.at(at).length === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 };
    await feed(t, accountId, table.baseId, [update(recordId(), {}, { [table.fieldIds[0]!]: 1 })]);
    const [delivery] = await eventually(
      () => allDeliveries(t, accountId, webhookId),
      (d) => d[0]?.status === 'succeeded',
    );
    const [first, second] = delivery!.attempts.map((a) => a.attemptedAt.getTime());
    expect(delivery!.attempts.map((a) => a.statusCode)).toEqual([429, 200]);
    expect(second! - first!).toBeGreaterThanOrEqual(1000);
  });

  it('fails after the last retry of the schedule, and a manual retry sends it again with the same id', async () => {
    const at = nextPath();
    const { accountId, webhookId } = await webhookOn(at);
    let down = true;
    receiver.answer = (request) => (request.path === at && down ? { status: 500 } : { status: 200 });
    await feed(t, accountId, table.baseId, [update(recordId(), {}, { [table.fieldIds[0]!]: 1 })]);
    const [failed] = await eventually(
      () => allDeliveries(t, accountId, webhookId),
      (d) => d[0]?.status === 'failed',
    );
    expect(failed!.attempts).toHaveLength(6); // the first attempt and the five of the schedule
    expect(receiver.at(at)).toHaveLength(6);

    down = false;
    const retried = await t.services.webhookDeliveries.retry(accountId, webhookId, failed!.id);
    expect(retried).toMatchObject({ id: failed!.id, status: 'pending' });
    const requests = await receiver.waitFor(at, 7);
    expect(requests[6]!.headers['webhook-id']).toBe(failed!.id);
    const [done] = await eventually(
      () => allDeliveries(t, accountId, webhookId),
      (d) => d[0]?.status === 'succeeded',
    );
    expect(done!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 500, 500, 500, 200]);
    expect(await refusal(() => t.services.webhookDeliveries.retry(accountId, webhookId, '00000000-0000-4000-8000-000000000000'))).toBe(
      'not_found',
    );
  });

  it('sends again when a manual retry comes while an attempt is in flight, whatever that attempt ends in', async () => {
    const at = nextPath();
    const { accountId, webhookId } = await webhookOn(at);
    // The first attempt is answered late with a 400 (which fails a delivery at once); any later one at once with 200.
    receiver.answer = (request) =>
      request.path === at && receiver.at(at).length === 1 ? { status: 400, delayMs: 1_000 } : { status: 200 };
    await feed(t, accountId, table.baseId, [update(recordId(), {}, { [table.fieldIds[0]!]: 1 })]);
    await receiver.waitFor(at, 1);
    const [inFlight] = await allDeliveries(t, accountId, webhookId);
    expect(inFlight!.attempts).toEqual([]);

    const retried = await t.services.webhookDeliveries.retry(accountId, webhookId, inFlight!.id);
    expect(retried).toMatchObject({ id: inFlight!.id, status: 'pending' });
    const requests = await receiver.waitFor(at, 2);
    expect(requests.map((r) => r.headers['webhook-id'])).toEqual([inFlight!.id, inFlight!.id]);
    // The late 400 of the first attempt is recorded, and does not fail the delivery the retry sent again.
    const [done] = await eventually(
      () => allDeliveries(t, accountId, webhookId),
      (d) => d[0]?.attempts.length === 2,
    );
    expect(done!.attempts.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(done!.status).toBe('succeeded');
    await new Promise((r) => setTimeout(r, 300));
    expect((await allDeliveries(t, accountId, webhookId))[0]!.status).toBe('succeeded');
    expect(receiver.at(at)).toHaveLength(2);
  });

  it('does not follow a redirect: a 3xx fails the delivery', async () => {
    const at = nextPath();
    const target = nextPath();
    const { accountId, webhookId } = await webhookOn(at);
    receiver.answer = (request) => (request.path === at ? { status: 307, headers: { location: receiver.url(target) } } : { status: 200 });
    await feed(t, accountId, table.baseId, [update(recordId(), {}, { [table.fieldIds[0]!]: 1 })]);
    const [delivery] = await eventually(
      () => allDeliveries(t, accountId, webhookId),
      (d) => d[0]?.status === 'failed',
    );
    expect(delivery!.attempts).toEqual([expect.objectContaining({ statusCode: 307, error: expect.stringMatching(/redirect/) })]);
    expect(receiver.at(target)).toHaveLength(0);
  });
});

describe('order and coalescing', () => {
  it('sends the deliveries of one record in order, one at a time, and different records in parallel', async () => {
    const at = nextPath();
    const { accountId } = await webhookOn(at);
    receiver.answer = (request) => (request.path === at ? { status: 200, delayMs: 150 } : { status: 200 });
    receiver.keyOf = (request) => `${request.path}:${request.json?.data?.recordId}`;
    receiver.maxInFlight = 0;
    const [a, b] = [recordId(), recordId()];
    const f = table.fieldIds[0]!;
    const changes = [1, 2, 3, 4].flatMap((n) => [update(a, { [f]: n - 1 }, { [f]: n }), update(b, { [f]: -(n - 1) }, { [f]: -n })]);
    await feed(t, accountId, table.baseId, changes.slice(0, 4));
    await feed(t, accountId, table.baseId, changes.slice(4));

    const requests = await receiver.waitFor(at, 8);
    const valuesOf = (record: string) => requests.filter((r) => r.json.data.recordId === record).map((r) => r.json.data.current?.[f]);
    expect(valuesOf(a)).toEqual([1, 2, 3, 4]);
    expect(valuesOf(b)).toEqual([-1, -2, -3, -4]);
    expect(receiver.maxInFlightByKey.get(`${at}:${a}`)).toBe(1);
    expect(receiver.maxInFlightByKey.get(`${at}:${b}`)).toBe(1);
    expect(receiver.maxInFlight).toBeGreaterThanOrEqual(2);
  });

  it('merges quick updates of one record into one delivery: union of fields, earliest previous, latest current', async () => {
    const at = nextPath();
    const { accountId } = await webhookOn(at, { coalesceUpdates: true });
    const [f1, f2, f3] = table.fieldIds;
    const record = recordId();
    const other = recordId();
    await feed(t, accountId, table.baseId, [update(record, { [f1!]: 'a0' }, { [f1!]: 'a1' })]);
    await feed(t, accountId, table.baseId, [
      update(record, { [f2!]: 'b0', [f1!]: 'a1' }, { [f2!]: 'b1', [f1!]: 'a2' }),
      update(other, { [f1!]: 'x0' }, { [f1!]: 'x1' }),
    ]);
    await feed(t, accountId, table.baseId, [update(record, { [f3!]: 'c0' }, { [f3!]: 'c1' })]);

    await receiver.waitFor(at, 2);
    await settle(800);
    const requests = receiver.at(at);
    expect(requests).toHaveLength(2);
    const merged = requests.find((r) => r.json.data.recordId === record)!.json.data;
    expect(merged).toMatchObject({
      changeCount: 3,
      fieldIds: [f1, f2, f3].sort(),
      previous: { [f1!]: 'a0', [f2!]: 'b0', [f3!]: 'c0' },
      current: { [f1!]: 'a2', [f2!]: 'b1', [f3!]: 'c1' },
    });
    expect(requests.find((r) => r.json.data.recordId === other)!.json.data.changeCount).toBe(1);
  });

  it('does not merge without coalesceUpdates', async () => {
    const at = nextPath();
    const { accountId } = await webhookOn(at);
    const record = recordId();
    const f = table.fieldIds[0]!;
    await feed(t, accountId, table.baseId, [update(record, { [f]: 0 }, { [f]: 1 }), update(record, { [f]: 1 }, { [f]: 2 })]);
    const requests = await receiver.waitFor(at, 2);
    expect(requests.map((r) => r.json.data.changeCount)).toEqual([1, 1]);
  });
});

describe('reliability', () => {
  it('loses nothing while the receiver is down', async () => {
    const outage = await new Receiver().start();
    const port = outage.port;
    await outage.stop();
    const local = await startTestServices(deliveryEnv(port));
    try {
      const table = demoTable(local);
      const { webhook } = await createWebhook(local, local.accountId, {
        baseId: table.baseId,
        event: 'record_create',
        tableId: table.tableId,
        webhookUrl: `http://127.0.0.1:${port}/down`,
      });
      const records = [recordId(), recordId(), recordId(), recordId(), recordId()];
      await feed(
        local,
        local.accountId,
        table.baseId,
        records.map((r) => change('record_create', { tableId: table.tableId, recordId: r })),
      );
      await eventually(
        () => allDeliveries(local, local.accountId, webhook.id),
        (d) => d.length === 5 && d.every((x) => x.attempts.length >= 2),
      );
      await outage.start(port);
      const requests = await outage.waitFor('/down', 5);
      expect(requests.map((r) => r.json.data.recordId).sort()).toEqual([...records].sort());
      const log = await eventually(
        () => allDeliveries(local, local.accountId, webhook.id),
        (d) => d.every((x) => x.status === 'succeeded'),
      );
      expect(
        log.every((d) => d.status === 'succeeded' && d.attempts[0]!.statusCode === null && d.attempts[0]!.error!.includes('ECONNREFUSED')),
      ).toBe(true);
    } finally {
      await local.close();
      await outage.stop();
    }
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const at = nextPath();
    const { accountId, webhookId, secret: oldSecret } = await webhookOn(at);
    const newSecret = await t.services.webhooks.rotateSecret(accountId, webhookId);
    await feed(t, accountId, table.baseId, [update(recordId(), {}, { [table.fieldIds[0]!]: 1 })]);
    const [request] = await receiver.waitFor(at, 1);
    const signatures = String(request!.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(verifyStandardWebhook(newSecret, request!.headers, request!.body)).toBe(true);
    expect(verifyStandardWebhook(oldSecret, request!.headers, request!.body)).toBe(true);
    const withOnlyFirst = { ...request!.headers, 'webhook-signature': signatures[0] };
    expect(verifyStandardWebhook(newSecret, withOnlyFirst, request!.body)).toBe(true);
  });

  it('sends nothing for a deleted webhook', async () => {
    const at = nextPath();
    const { accountId, webhookId } = await webhookOn(at);
    await t.services.webhooks.remove(accountId, webhookId);
    await feed(t, accountId, table.baseId, [update(recordId(), {}, { [table.fieldIds[0]!]: 1 })]);
    await settle();
    expect(receiver.at(at)).toHaveLength(0);
    expect(await allDeliveries(t, accountId, webhookId)).toEqual([]);
  });
});

describe('the delivery log (DeliveryLogService.list)', () => {
  it('pages newest first with an opaque cursor that only this webhook accepts, filtered by status', async () => {
    const at = nextPath();
    const { accountId, webhookId } = await webhookOn(at, { event: 'record_create' });
    const other = await createWebhook(t, accountId, { baseId: table.baseId, event: 'table_create', webhookUrl: receiver.url(nextPath()) });
    const records = Array.from({ length: 5 }, recordId);
    await feed(
      t,
      accountId,
      table.baseId,
      records.map((r) => change('record_create', { tableId: table.tableId, recordId: r })),
    );
    await eventually(
      () => allDeliveries(t, accountId, webhookId),
      (d) => d.length === 5 && d.every((x) => x.status === 'succeeded'),
    );
    /** One page, the query given as a URL carries it and parsed by the log's own input schema. */
    const page = (query: Record<string, string | number>, id = webhookId) =>
      t.services.webhookDeliveries.list(accountId, id, parsed(deliveryLogInput.list, asQuery(query)));
    const recordsOf = (deliveries: Array<{ payload: unknown }>) =>
      deliveries.map((d) => (d.payload as { data: { recordId: string } }).data.recordId);

    const first = await page({ limit: 2 });
    expect(recordsOf(first.deliveries)).toEqual([records[4], records[3]]);
    const second = await page({ limit: 2, cursor: first.nextCursor! });
    expect(recordsOf(second.deliveries)).toEqual([records[2], records[1]]);
    const third = await page({ limit: 2, cursor: second.nextCursor! });
    expect(third.deliveries).toHaveLength(1);
    expect(third.nextCursor).toBeUndefined();

    expect(await refusal(() => page({ cursor: first.nextCursor! }, other.webhook.id))).toBe('invalid_request');
    expect(await refusal(() => page({ cursor: 'forged' }))).toBe('invalid_request');
    expect(await refusal(() => page({ limit: 101 }))).toBe('invalid_request');
    expect((await page({ status: 'succeeded', limit: 100 })).deliveries).toHaveLength(5);
    expect((await page({ status: 'failed' })).deliveries).toEqual([]);
    const [attempt] = first.deliveries[0]!.attempts;
    expect(attempt).toEqual({ attemptedAt: expect.any(Date), statusCode: 200, durationMs: expect.any(Number), error: null });
  });
});

/** Lets due work run, so that "nothing more arrived" means something. */
const settle = (ms = 600) => new Promise((r) => setTimeout(r, ms));
