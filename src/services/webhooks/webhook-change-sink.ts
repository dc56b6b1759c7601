import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Webhook, WebhookDelivery } from '../../entities/index.js';
import { claimUnsentDelivery } from '../../repositories/webhook-delivery.repository.js';
import type { ChangeEvent, IngestedBase, WatchedBase } from '../audit/change-event.js';
import type { ChangeSink } from '../audit/change-pipeline.js';
import { coalesce, eventBodyOf, type WebhookEventBody } from './event-body.js';
import { insertDeliveries } from './delivery-row.js';
import { firesOn, lineOf, type WebhookEvent } from './webhook-rules.js';

export interface CoalescingOptions {
  /** An update merges into the pending one of its record while no update came for this long … */
  windowMs: number;
  /** … and for at most this long after the first. */
  maxWaitMs: number;
}

/** A delivery being built in this batch: new, or a pending one of an earlier batch taken over for coalescing. */
interface Draft {
  row: WebhookDelivery;
  body: WebhookEventBody;
  stored: boolean;
}

/**
 * The webhook side of ingestion: inside the ingestion transaction, one delivery per change and matching active
 * webhook, so deliveries commit (or roll back) with the audit entries and the payload cursor. Record updates of
 * a coalescing webhook merge into the record's delivery still waiting out its window.
 */
export class WebhookChangeSink implements ChangeSink {
  constructor(
    private readonly coalescing: CoalescingOptions,
    private readonly wake: () => void,
  ) {}

  async accept(manager: EntityManager, base: IngestedBase, changes: ChangeEvent[]): Promise<void> {
    if (!changes.length) return;
    // Every account's webhooks of the base (the upstream watch is shared), but those of paused accounts.
    const webhooks = (await manager.findBy(Webhook, { baseId: base.baseId, active: true })).filter(
      (w) => !base.pausedAccounts.has(w.accountId),
    );
    if (!webhooks.length) return;
    const now = new Date();
    const drafts: Draft[] = [];
    const openByLine = new Map<string, Draft | null>();
    for (const change of changes) {
      for (const webhook of webhooks) {
        if (!firesOn({ event: webhook.event as WebhookEvent, tableId: webhook.tableId, columnId: webhook.columnId }, change)) {
          continue;
        }
        const coalescing = webhook.coalesceUpdates && change.eventType === 'record_update';
        if (coalescing) {
          const line = lineOf(change);
          const key = `${webhook.id}:${line}`;
          if (!openByLine.has(key)) {
            const taken = await this.takeOver(manager, webhook.id, line, now);
            if (taken) drafts.push(taken);
            openByLine.set(key, taken);
          }
          const open = openByLine.get(key);
          if (open) {
            this.merge(open, change, now);
            continue;
          }
          const draft = this.draft(webhook, base, change, now, true);
          openByLine.set(key, draft);
          drafts.push(draft);
        } else {
          drafts.push(this.draft(webhook, base, change, now, false));
        }
      }
    }
    await this.save(manager, drafts);
  }

  committed(): void {
    this.wake();
  }

  private draft(webhook: Webhook, base: WatchedBase, change: ChangeEvent, now: Date, coalescing: boolean): Draft {
    const id = randomUUID();
    const body = eventBodyOf(id, webhook.id, base.baseId, change);
    const row = Object.assign(new WebhookDelivery(), {
      id,
      webhookId: webhook.id,
      recordKey: lineOf(change),
      eventType: change.eventType,
      body: '',
      changeCount: 1,
      status: 'pending',
      attempts: 0,
      retryStep: 0,
      nextAttemptAt: coalescing ? new Date(now.getTime() + this.coalescing.windowMs) : now,
      coalesceUntil: coalescing ? new Date(now.getTime() + this.coalescing.maxWaitMs) : null,
      leaseToken: null,
      leaseUntil: null,
      createdAt: now,
      updatedAt: now,
    });
    return { row, body, stored: false };
  }

  private merge(draft: Draft, change: ChangeEvent, now: Date): void {
    draft.body = coalesce(draft.body, change);
    draft.row.changeCount = draft.body.data.changeCount;
    draft.row.updatedAt = now;
    const windowEnd = now.getTime() + this.coalescing.windowMs;
    draft.row.nextAttemptAt = new Date(Math.min(windowEnd, draft.row.coalesceUntil!.getTime()));
  }

  /**
   * The newest pending delivery of the record's line, if it is still open for merging: never attempted, not in
   * flight, within its maximum wait. The conditional update claims it for this transaction, so a sender cannot
   * lease it until the merged body is committed (and a delivery already leased is left alone).
   */
  private async takeOver(manager: EntityManager, webhookId: string, recordKey: string, now: Date): Promise<Draft | null> {
    const newest = await manager.findOne(WebhookDelivery, {
      where: { webhookId, recordKey, status: 'pending' },
      order: { seq: 'DESC' },
    });
    if (!newest || newest.attempts > 0 || !newest.coalesceUntil || newest.coalesceUntil <= now) return null;
    if (!(await claimUnsentDelivery(manager, newest.seq, now))) return null;
    return { row: newest, body: JSON.parse(newest.body) as WebhookEventBody, stored: true };
  }

  private async save(manager: EntityManager, drafts: Draft[]): Promise<void> {
    for (const draft of drafts) draft.row.body = JSON.stringify(draft.body);
    await insertDeliveries(
      manager,
      drafts.filter((d) => !d.stored).map((d) => d.row),
    );
    for (const { row } of drafts.filter((d) => d.stored)) {
      await manager.update(
        WebhookDelivery,
        { seq: row.seq },
        { body: row.body, changeCount: row.changeCount, nextAttemptAt: row.nextAttemptAt, updatedAt: row.updatedAt },
      );
    }
  }
}
