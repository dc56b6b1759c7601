import { In, LessThan, type DataSource } from 'typeorm';
import { WebhookDelivery, WebhookDeliveryAttempt, type WebhookDeliveryStatus } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import { deliveryCounts } from '../../repositories/webhook-delivery.repository.js';
import { isServiceId } from '../service-id.js';
import type { SignedCursorCodec } from '../signed-cursor.js';
import type { WebhookEventBody } from './event-body.js';
import type { UsageThresholdEventBody } from './usage-threshold-deliveries.js';
import type { WebhookService } from './webhook.service.js';

export interface DeliveryAttemptView {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface DeliveryView {
  id: string;
  status: WebhookDeliveryStatus;
  eventType: string;
  changeCount: number;
  /** Null unless pending. */
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  payload: WebhookEventBody | UsageThresholdEventBody;
  attempts: DeliveryAttemptView[];
}

export interface DeliveryPage {
  deliveries: DeliveryView[];
  nextCursor?: string;
}

export interface ListDeliveriesQuery {
  limit: number;
  cursor?: string;
  status?: WebhookDeliveryStatus;
}

/** The delivery log of a webhook (newest first, with every attempt) and the manual retry of one delivery. */
export class DeliveryLogService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly webhooks: WebhookService,
    private readonly cursors: SignedCursorCodec<number>,
    private readonly wake: () => void,
  ) {}

  /** Readable for deactivated webhooks too: the log tells why they stopped. */
  async list(accountId: string, webhookId: string, query: ListDeliveriesQuery): Promise<DeliveryPage> {
    const webhook = await this.webhooks.get(accountId, webhookId);
    const before = query.cursor === undefined ? undefined : this.cursors.decode(webhook.id, query.cursor);
    const rows = await this.dataSource.getRepository(WebhookDelivery).find({
      where: {
        webhookId: webhook.id,
        ...(before === undefined ? {} : { seq: LessThan(before) }),
        ...(query.status ? { status: query.status } : {}),
      },
      order: { seq: 'DESC' },
      take: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const deliveries = await this.withAttempts(page);
    const last = page[page.length - 1];
    return rows.length > query.limit && last ? { deliveries, nextCursor: this.cursors.encode(webhook.id, last.seq) } : { deliveries };
  }

  /** One delivery of the webhook's log (readable for deactivated webhooks too), or 404. */
  async get(accountId: string, webhookId: string, deliveryId: string): Promise<DeliveryView> {
    const webhook = await this.webhooks.get(accountId, webhookId);
    const row = isServiceId(deliveryId)
      ? await this.dataSource.getRepository(WebhookDelivery).findOneBy({ id: deliveryId, webhookId: webhook.id })
      : null;
    if (!row) throw notFound('Delivery');
    const [view] = await this.withAttempts([row]);
    return view!;
  }

  /** How many deliveries each of these webhooks (already access-checked) has logged, with `status` if given. */
  async countOf(webhookIds: string[], status?: WebhookDeliveryStatus): Promise<Map<string, number>> {
    const counts = new Map(webhookIds.map((id) => [id, 0]));
    if (webhookIds.length === 0) return counts;
    for (const row of await deliveryCounts(this.dataSource, webhookIds, status)) counts.set(row.id, row.n);
    return counts;
  }

  /**
   * Sends a delivery again, whatever its state, with a fresh retry schedule and the same `webhook-id` (so a
   * receiver that got it already can tell). Only for active webhooks. The lease goes too: an attempt still in flight
   * then records its outcome without ending or rescheduling the delivery (its updates need the lease), so the retry
   * asked for is never undone.
   */
  async retry(accountId: string, webhookId: string, deliveryId: string): Promise<DeliveryView> {
    const webhook = await this.webhooks.getActive(accountId, webhookId);
    const repository = this.dataSource.getRepository(WebhookDelivery);
    const delivery = isServiceId(deliveryId) ? await repository.findOneBy({ id: deliveryId, webhookId: webhook.id }) : null;
    if (!delivery) throw notFound('Delivery');
    const now = new Date();
    const requeued = { status: 'pending', retryStep: 0, nextAttemptAt: now, updatedAt: now } as const;
    await repository.update({ seq: delivery.seq }, { ...requeued, leaseToken: null, leaseUntil: null });
    this.wake();
    const [view] = await this.withAttempts([Object.assign(delivery, requeued)]);
    return view!;
  }

  private async withAttempts(rows: WebhookDelivery[]): Promise<DeliveryView[]> {
    const attempts = rows.length
      ? await this.dataSource.getRepository(WebhookDeliveryAttempt).find({
          where: { deliverySeq: In(rows.map((r) => r.seq)) },
          order: { id: 'ASC' },
        })
      : [];
    const bySeq = new Map<number, DeliveryAttemptView[]>();
    for (const a of attempts) {
      const list = bySeq.get(a.deliverySeq) ?? [];
      list.push({ attemptedAt: a.attemptedAt, statusCode: a.statusCode, durationMs: a.durationMs, error: a.error });
      bySeq.set(a.deliverySeq, list);
    }
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      eventType: row.eventType,
      changeCount: row.changeCount,
      nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      payload: JSON.parse(row.body) as DeliveryView['payload'],
      attempts: bySeq.get(row.seq) ?? [],
    }));
  }
}
