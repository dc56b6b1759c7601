import { performance } from 'node:perf_hooks';
import { WEBHOOK_MAC_HEADER, type WebhookNotificationResult, type WebhookPing } from '../../upstream/webhook-types.js';
import { webhookMac } from '../../upstream/webhook-mac.js';

export interface PingSettings {
  /** Wait before a ping, so changes made close together share one. */
  delayMs: number;
  /** Connect, send and receive must finish within this. */
  timeoutMs: number;
  /** The first retry waits this long; each next one twice as long. */
  retryBaseDelayMs: number;
  maxRetries: number;
}

export interface PingDestination {
  url: string;
  macSecretBase64: string;
}

/** The webhook as the pinger sees it; the registry answers from its current state at every attempt. */
export interface PingSubject {
  webhookId: string;
  baseId: string;
  /** Null when the webhook may no longer be pinged (deleted, expired, notifications off, no URL). */
  destination(): PingDestination | null;
  report(result: WebhookNotificationResult): void;
}

interface PendingPing {
  timer?: NodeJS.Timeout;
  inFlight?: AbortController;
  /** A change arrived while a ping was on the wire, so one more is owed after it. */
  again: boolean;
}

/**
 * MAC-signed notification pings: at most one pending per webhook (later requests join it), retried with
 * exponential backoff, never blocking the caller. Timers are unref'd; `close()` cancels everything.
 */
export class NotificationPinger {
  private readonly pending = new Map<string, PendingPing>();
  private closed = false;

  constructor(
    private readonly settings: PingSettings,
    private readonly now: () => number,
  ) {}

  request(subject: PingSubject): void {
    if (this.closed) return;
    const pending = this.pending.get(subject.webhookId);
    if (pending) {
      if (pending.timer === undefined) pending.again = true;
      return;
    }
    const ping: PendingPing = { again: false };
    this.pending.set(subject.webhookId, ping);
    this.schedule(subject, ping, 0, this.settings.delayMs);
  }

  cancel(webhookId: string): void {
    const pending = this.pending.get(webhookId);
    if (!pending) return;
    this.pending.delete(webhookId);
    clearTimeout(pending.timer);
    pending.inFlight?.abort();
  }

  close(): void {
    this.closed = true;
    for (const webhookId of [...this.pending.keys()]) this.cancel(webhookId);
  }

  private schedule(subject: PingSubject, ping: PendingPing, retryNumber: number, delayMs: number): void {
    ping.timer = setTimeout(() => {
      ping.timer = undefined;
      this.attempt(subject, ping, retryNumber).catch(() => this.pending.delete(subject.webhookId));
    }, delayMs);
    ping.timer.unref();
  }

  private async attempt(subject: PingSubject, ping: PendingPing, retryNumber: number): Promise<void> {
    const destination = subject.destination();
    if (!destination) {
      this.pending.delete(subject.webhookId);
      return;
    }
    ping.again = false;
    ping.inFlight = new AbortController();
    const started = performance.now();
    const error = await this.send(subject, destination, ping.inFlight.signal);
    ping.inFlight = undefined;
    if (this.pending.get(subject.webhookId) !== ping) return; // cancelled meanwhile
    const willBeRetried = error !== undefined && retryNumber < this.settings.maxRetries;
    const result: WebhookNotificationResult = {
      success: error === undefined,
      completionTimestamp: new Date(this.now()).toISOString(),
      durationMs: Math.round(performance.now() - started),
      retryNumber,
      ...(error === undefined ? {} : { error: { message: error }, willBeRetried }),
    };
    subject.report(result);
    if (willBeRetried) {
      this.schedule(subject, ping, retryNumber + 1, this.settings.retryBaseDelayMs * 2 ** retryNumber);
    } else if (error === undefined && ping.again) {
      this.schedule(subject, ping, 0, this.settings.delayMs);
    } else {
      this.pending.delete(subject.webhookId);
    }
  }

  /** Resolves to undefined on success, else to the failure's message. */
  private async send(subject: PingSubject, destination: PingDestination, cancelled: AbortSignal): Promise<string | undefined> {
    const ping: WebhookPing = {
      base: { id: subject.baseId },
      webhook: { id: subject.webhookId },
      timestamp: new Date(this.now()).toISOString(),
    };
    const body = JSON.stringify(ping);
    try {
      const response = await fetch(destination.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [WEBHOOK_MAC_HEADER]: webhookMac(destination.macSecretBase64, body) },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([cancelled, AbortSignal.timeout(this.settings.timeoutMs)]),
      });
      await response.arrayBuffer();
      if (response.status === 200 || response.status === 204) return undefined;
      return `The HTTP request returned a ${response.status} status code instead of 200 or 204`;
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        return `The HTTP request did not complete within ${this.settings.timeoutMs} ms`;
      }
      const code = error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined;
      return `The HTTP request failed${typeof code === 'string' ? ` (${code})` : ''}`;
    }
  }
}
