import { safeError, type Logger } from '../../logger.js';
import type { AttemptRecorder } from './attempt-recorder.js';
import type { DeliveryStore, LeasedDelivery } from '../../repositories/delivery-store.js';
import type { SendResult, WebhookHttpSender } from './http-sender.js';
import { outcomeOf, type AttemptOutcome } from './retry-policy.js';
import { signedHeaders } from './signature.js';
import { UnsafeWebhookUrl, type WebhookUrlGuard } from './url-guard.js';
import type { WebhookService } from './webhook.service.js';

export interface DispatcherOptions {
  retryScheduleMs: number[];
  timeoutMs: number;
  concurrency: number;
  logger: Logger;
}

/** Longest sleep between looks at the outbox when nothing is due; the periodic job looks too. */
const MAX_IDLE_MS = 30_000;
/** A failed look at the outbox (database busy) is repeated after this. */
const RETRY_LOOK_MS = 1_000;

/**
 * Sends due deliveries, up to `concurrency` at once, in the processes that run jobs. Woken at once when an
 * ingestion commits deliveries, and by a timer for the next retry or coalescing window; the `webhook.deliver`
 * job sweeps periodically so nothing waits on a lost wake-up, a restart or a crashed process's lease.
 */
export class DeliveryDispatcher {
  private running = false;
  /** Deliveries being sent: the slots of `concurrency`. */
  private inFlight = 0;
  /** Deliveries leased and not yet recorded (sending, or their attempt being stored). */
  private unfinished = 0;
  private looking: Promise<void> | undefined;
  private lookAgain = false;
  private pumpQueued = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly settled = new Set<() => void>();
  private readonly attemptListeners: Array<(outcome: AttemptOutcome) => void> = [];

  constructor(
    private readonly store: DeliveryStore,
    private readonly recorder: AttemptRecorder,
    private readonly webhooks: WebhookService,
    private readonly guard: WebhookUrlGuard,
    private readonly sender: WebhookHttpSender,
    private readonly options: DispatcherOptions,
  ) {}

  /** Begins sending (a process that runs jobs). */
  start(): void {
    this.running = true;
    this.wake();
  }

  /** Something may be due now: look soon (many wake-ups in one tick make one look). */
  wake(): void {
    if (!this.running || this.pumpQueued) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      void this.pump();
    });
  }

  /** One look at the outbox now (the periodic job); sends that start continue in the background. */
  async sweep(): Promise<void> {
    if (!this.running) return;
    await this.pump();
  }

  /** Tells `listener` how each attempt ended, once its POST is over (the service's metrics). */
  onAttempted(listener: (outcome: AttemptOutcome) => void): void {
    this.attemptListeners.push(listener);
  }

  /** Stops taking deliveries and waits for those in flight, up to the deadline; their leases cover the rest. */
  async stop(deadlineMs: number): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    const deadline = Date.now() + deadlineMs;
    while ((this.unfinished > 0 || this.looking) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        this.settled.add(resolve);
        setTimeout(resolve, Math.max(0, deadline - Date.now())).unref();
      });
    }
    this.sender.close();
  }

  private async pump(): Promise<void> {
    if (this.looking) {
      // Whatever the running look saw may be stale by now (an attempt stored since): it looks once more.
      this.lookAgain = true;
      return this.looking;
    }
    this.looking = (async () => {
      do {
        this.lookAgain = false;
        await this.look();
      } while (this.lookAgain && this.running);
    })().finally(() => {
      this.looking = undefined;
      this.notifySettled();
    });
    return this.looking;
  }

  private async look(): Promise<void> {
    try {
      let lookedAt: Date;
      for (;;) {
        const room = this.options.concurrency - this.inFlight;
        if (!this.running || room <= 0) return;
        lookedAt = new Date();
        const leased = await this.store.leaseDue(room, this.leaseMs(), lookedAt);
        for (const item of leased) this.launch(item);
        if (leased.length < room) break;
      }
      // From the instant the lease looked, not from now: a delivery that fell due in between is still waited for.
      await this.armTimer(lookedAt);
    } catch (error) {
      this.options.logger.warn({ err: safeError(error) }, 'looking for due webhook deliveries failed');
      this.armTimerIn(RETRY_LOOK_MS);
    }
  }

  private launch(item: LeasedDelivery): void {
    this.inFlight += 1;
    this.unfinished += 1;
    let slotFree = false;
    const freeSlot = () => {
      if (slotFree) return;
      slotFree = true;
      this.inFlight -= 1;
      this.wakeIfRoom();
    };
    void this.attempt(item, freeSlot)
      .catch((error: unknown) =>
        this.options.logger.error({ err: safeError(error), deliveryId: item.delivery.id }, 'webhook delivery attempt failed'),
      )
      .finally(() => {
        freeSlot();
        this.unfinished -= 1;
        this.notifySettled();
        // Stored: the next delivery of the record's line may go now.
        this.wakeIfRoom();
      });
  }

  /** Looks again once a tenth of the slots are free: one look leases many. */
  private wakeIfRoom(): void {
    if (this.options.concurrency - this.inFlight >= Math.max(1, this.options.concurrency / 10)) this.wake();
  }

  /** `sent` is called once the POST is over: its slot serves the next delivery while this attempt is stored. */
  private async attempt(item: LeasedDelivery, sent: () => void): Promise<void> {
    const { delivery, webhook } = item;
    if (!webhook?.active) return this.store.dropInactive(item);
    const attemptedAt = new Date();
    const result = await this.send(item);
    sent();
    const outcome = outcomeOf(result, delivery.retryStep, this.options.retryScheduleMs);
    for (const listener of this.attemptListeners) listener(outcome);
    const deactivation = await this.recorder.record({ leased: item, attemptedAt, result, outcome });
    if (deactivation) await this.webhooks.deactivate(webhook, deactivation);
  }

  /** Guard (again: DNS may have changed since the webhook was created), sign, POST. */
  private async send({ delivery, webhook }: LeasedDelivery): Promise<SendResult> {
    try {
      const target = await this.guard.check(webhook.webhookUrl);
      const timestamp = Math.floor(Date.now() / 1000);
      const headers = signedHeaders(this.webhooks.signingSecrets(webhook), delivery.id, timestamp, delivery.body);
      return await this.sender.send(target, headers, delivery.body);
    } catch (error) {
      if (!(error instanceof UnsafeWebhookUrl)) throw error;
      return { statusCode: null, durationMs: 0, error: `webhookUrl ${error.message}`, retryAfterMs: null };
    }
  }

  private async armTimer(after: Date): Promise<void> {
    const next = await this.store.nextDueAt(after);
    this.armTimerIn(next ? next.getTime() - Date.now() : MAX_IDLE_MS);
  }

  private armTimerIn(ms: number): void {
    clearTimeout(this.timer);
    if (!this.running) return;
    this.timer = setTimeout(() => this.wake(), Math.min(Math.max(ms, 0), MAX_IDLE_MS));
    this.timer.unref();
  }

  /** A lease outlives the attempt (guard, send, record) so another process never sends a delivery still in flight. */
  private leaseMs(): number {
    return this.options.timeoutMs + 30_000;
  }

  private notifySettled(): void {
    for (const resolve of this.settled) resolve();
    this.settled.clear();
  }
}
