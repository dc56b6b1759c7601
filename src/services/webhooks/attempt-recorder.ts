import type { DataSource, EntityManager } from 'typeorm';
import type { WebhookDeactivationReason } from '../../entities/index.js';
import type { LeasedDelivery } from '../../repositories/delivery-store.js';
import type { SendResult } from './http-sender.js';
import type { AttemptOutcome } from './retry-policy.js';
import { insertRows } from '../../repositories/run-sql.js';
import {
  clearFailingSince,
  finishLeasedDeliveries,
  markFailingSince,
  rescheduleLeasedDelivery,
} from '../../repositories/webhook-delivery.repository.js';

export interface FinishedAttempt {
  leased: LeasedDelivery;
  attemptedAt: Date;
  result: SendResult;
  outcome: AttemptOutcome;
}

interface Waiting extends FinishedAttempt {
  resolve(reason: WebhookDeactivationReason | null): void;
  reject(error: unknown): void;
}

const ERROR_LENGTH = 500;
/** Attempts finishing within this window are stored in one transaction. */
const GROUP_COMMIT_MS = 10;

/**
 * Stores finished attempts and where they leave their deliveries and webhooks. Attempts are written in groups
 * (a group commit): a few statements per transaction instead of several per delivery, which is what bounded the
 * delivery rate on SQLite.
 */
/** A delivery attempt stored: its webhook's log changed. */
export interface DeliveryAttempted {
  webhookId: string;
  deliveryId: string;
}

export class AttemptRecorder {
  private queue: Waiting[] = [];
  private scheduled = false;
  private readonly listeners = new Set<(event: DeliveryAttempted) => void>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly disableAfterMs: number,
  ) {}

  /** Hears each attempt once it is stored (the GraphQL subscription `deliveryAttempted`); returns the unsubscribe. */
  onRecorded(listener: (event: DeliveryAttempted) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Resolves once stored, with the reason the webhook must now be deactivated, if any. */
  record(attempt: FinishedAttempt): Promise<WebhookDeactivationReason | null> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...attempt, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setTimeout(() => void this.flush(), GROUP_COMMIT_MS);
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      try {
        const reasons = await this.dataSource.transaction((manager) => this.write(manager, batch));
        for (const [i, item] of batch.entries()) item.resolve(reasons[i] ?? null);
        for (const { leased } of batch) {
          for (const listener of this.listeners) listener({ webhookId: leased.delivery.webhookId, deliveryId: leased.delivery.id });
        }
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    this.scheduled = false;
  }

  private async write(manager: EntityManager, batch: Waiting[]): Promise<Array<WebhookDeactivationReason | null>> {
    const now = new Date().toISOString();
    await insertRows(
      manager,
      'webhook_delivery_attempt',
      batch.map(({ leased, attemptedAt, result }) => ({
        delivery_seq: leased.delivery.seq,
        attempted_at: attemptedAt.toISOString(),
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error: result.error?.slice(0, ERROR_LENGTH) ?? null,
      })),
    );
    await this.finish(
      manager,
      batch.filter((b) => b.outcome.kind === 'succeeded'),
      'succeeded',
      now,
    );
    await this.finish(
      manager,
      batch.filter((b) => b.outcome.kind === 'failed' || b.outcome.kind === 'gone'),
      'failed',
      now,
    );
    for (const { leased, outcome } of batch) {
      if (outcome.kind !== 'retry') continue;
      await rescheduleLeasedDelivery(
        manager,
        { seq: leased.delivery.seq, token: leased.token },
        { step: leased.delivery.retryStep + 1, at: new Date(Date.parse(now) + outcome.delayMs).toISOString(), now },
      );
    }
    const failingSince = await this.trackFailures(manager, batch, now);
    return batch.map(({ leased, outcome }) => {
      if (outcome.kind === 'gone') return 'gone';
      const since = failingSince.get(leased.webhook.id);
      return outcome.kind !== 'succeeded' && since && Date.parse(now) - Date.parse(since) >= this.disableAfterMs ? 'failing' : null;
    });
  }

  /** Ends deliveries still leased by this process (a DELETE in the meantime may have ended them already). */
  private async finish(manager: EntityManager, items: Waiting[], status: 'succeeded' | 'failed', now: string): Promise<void> {
    if (!items.length) return;
    const seqs = items.map((i) => i.leased.delivery.seq);
    await finishLeasedDeliveries(manager, status, now, seqs, [...new Set(items.map((i) => i.leased.token))]);
  }

  /**
   * A success clears a webhook's failing-since; a failure sets it unless set. Returns failing-since of the webhooks
   * that failed in this batch without any success.
   */
  private async trackFailures(manager: EntityManager, batch: Waiting[], now: string): Promise<Map<string, string>> {
    const succeeded = [...new Set(batch.filter((b) => b.outcome.kind === 'succeeded').map((b) => b.leased.webhook.id))];
    const failed = [...new Set(batch.filter((b) => b.outcome.kind !== 'succeeded').map((b) => b.leased.webhook.id))].filter(
      (id) => !succeeded.includes(id),
    );
    if (succeeded.length) await clearFailingSince(manager, succeeded);
    if (!failed.length) return new Map();
    return markFailingSince(manager, failed, now);
  }
}
