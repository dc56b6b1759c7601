import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServices, type TestServices } from '../support/test-services.js';
import { Receiver } from '../webhooks/support/receiver.js';
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

/** Pruning of old webhook deliveries (pruneWebhookDeliveries), without HTTP. */

let t: TestServices;
let receiver: Receiver;
let table: DemoTable;

beforeAll(async () => {
  receiver = await new Receiver().start();
  // A 400 is final: the delivery fails at its first attempt.
  receiver.answer = (request) => ({ status: request.path === '/refused' ? 400 : 200 });
  t = await startTestServices(deliveryEnv(receiver.port));
  table = demoTable(t);
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});

const DAY_MS = 86_400_000;
/** Older than the default WEBHOOK_DELIVERY_RETENTION (30 days). */
const longAgo = () => new Date(Date.now() - 31 * DAY_MS).toISOString();

type Event = 'record_update' | 'record_create';

/** Webhooks of different events, so a change reaches one of them only. */
async function webhookTo(path: string, event: Event) {
  const { webhook } = await createWebhook(t, t.accountId, {
    baseId: table.baseId,
    event,
    tableId: table.tableId,
    webhookUrl: receiver.url(path),
  });
  return { webhookId: webhook.id, event };
}

/** Feeds one change and waits until the webhook's log holds `count` finished deliveries. */
async function deliverOne({ webhookId, event }: { webhookId: string; event: Event }, count: number) {
  const field = table.fieldIds[0]!;
  await feed(t, t.accountId, table.baseId, [
    change(event, { tableId: table.tableId, recordId: recordId(), fieldIds: [field], after: { [field]: 'x' } }),
  ]);
  return eventually(
    () => allDeliveries(t, t.accountId, webhookId),
    (deliveries) => deliveries.length === count && deliveries.every((d) => d.status !== 'pending'),
  );
}

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return t.services.dataSource.query(sql, params);
}

describe('pruning old webhook deliveries', () => {
  it('deletes finished deliveries (and their attempts) untouched for longer than the retention, and nothing else', async () => {
    const delivered = await webhookTo('/delivered', 'record_update');
    const refused = await webhookTo('/refused', 'record_create');
    for (let count = 1; count <= 4; count++) await deliverOne(delivered, count);
    const [failed] = await deliverOne(refused, 1);
    expect(failed!.status).toBe('failed');
    const [newest, pendingOld, oldA, oldB] = await allDeliveries(t, t.accountId, delivered.webhookId);
    expect([newest, pendingOld, oldA, oldB].map((d) => d!.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);

    // Aged as if a month had passed; one of them is waiting for a retry far ahead, which pruning must leave alone.
    const aged = [oldA!.id, oldB!.id, failed!.id];
    await query(`UPDATE webhook_delivery SET updated_at = ? WHERE id IN (?, ?, ?)`, [longAgo(), ...aged]);
    await query(`UPDATE webhook_delivery SET status = 'pending', next_attempt_at = ?, updated_at = ? WHERE id = ?`, [
      new Date(Date.now() + DAY_MS).toISOString(),
      longAgo(),
      pendingOld!.id,
    ]);
    const seqsOf = async (ids: string[]) =>
      (await query<{ seq: number }>(`SELECT seq FROM webhook_delivery WHERE id IN (${ids.map(() => '?').join(', ')})`, ids)).map((r) =>
        Number(r.seq),
      );
    const agedSeqs = await seqsOf(aged);
    const attemptsOf = async (seqs: number[]) =>
      Number(
        (
          await query<{ n: number }>(
            `SELECT COUNT(*) AS n FROM webhook_delivery_attempt WHERE delivery_seq IN (${seqs.map(() => '?').join(', ')})`,
            seqs,
          )
        )[0]!.n,
      );
    expect(await attemptsOf(agedSeqs)).toBe(3);

    expect(await t.services.pruneWebhookDeliveries()).toBe(3);

    expect((await allDeliveries(t, t.accountId, delivered.webhookId)).map((d) => d.id)).toEqual([newest!.id, pendingOld!.id]);
    expect(await allDeliveries(t, t.accountId, refused.webhookId)).toEqual([]);
    expect(await attemptsOf(agedSeqs)).toBe(0);
    expect(await attemptsOf(await seqsOf([newest!.id, pendingOld!.id]))).toBe(2);
    expect(await t.services.pruneWebhookDeliveries()).toBe(0);
  }, 60_000);
});
