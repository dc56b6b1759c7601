import { randomBytes } from 'node:crypto';
import type { CreatedWebhook, UpstreamWebhook, WebhookPayload, WebhookPayloadPage } from '../../upstream/webhook-types.js';
import { createIdGenerator, type IdGenerator } from '../id-generator.js';
import type { WebhooksState } from '../persistence/saved-state.js';
import { createRandom, hashSeed, type ResumableRandom } from '../prng.js';
import type { SandboxChange } from '../sandbox-change.types.js';
import type { SandboxStore } from '../sandbox-store.js';
import { toActionMetadata } from './action-metadata.js';
import { NotificationPinger, type PingSubject } from './notification-pinger.js';
import { buildPayloadChanges, invalidatesSpecification } from './payload-builder.js';
import { tooManyIntegrationWebhooks, tooManyWebhooks, webhookNotFound, webhookNotRefreshable } from './webhook-errors.js';
import { DEFAULT_OWNER_KEY, type WebhookOwner } from './webhook-owner.js';
import { validateNewWebhook } from './webhook-specification.js';
import type { SandboxWebhookOptions, StoredWebhook } from './webhook.types.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const MAX_WEBHOOKS_PER_BASE = 10;
/** Per OAuth integration (and user) per base. */
export const MAX_WEBHOOKS_PER_INTEGRATION = 2;
/** From creation, the last refresh, or the last payload listing of an active webhook. */
export const WEBHOOK_LIFETIME_MS = 7 * DAY_MS;
/** How long payloads, and an expired webhook's metadata, stay readable. */
export const WEBHOOK_RETENTION_MS = 7 * DAY_MS;
export const MAX_PAYLOADS_PER_PAGE = 50;

type ErrorCode = 'INVALID_FILTERS' | 'INTERNAL_ERROR';

export interface WebhookRegistryPersistence {
  /** Resumes saved webhooks (payloads, cursors, secrets, expiry) and their id stream. */
  saved?: WebhooksState;
  /** Called after every change to the registry's state that no store change accounts for. */
  changed?: () => void;
}

/**
 * The Webhooks API of the sandbox: webhooks per base, their payloads (one per matching change, numbered by a
 * per-webhook cursor that is never reset) and notification pings. Time comes from `now`, so tests can move it.
 * Methods given a `viewer` (a WebhookOwner key) see only that owner's webhooks; without one, every webhook.
 */
export class SandboxWebhooks {
  private readonly webhooks = new Map<string, StoredWebhook>();
  private readonly transactionNumbers = new Map<string, number>();
  private readonly pinger: NotificationPinger;
  private readonly random: ResumableRandom;
  private readonly ids: IdGenerator;
  private readonly changed: () => void;

  constructor(
    private readonly store: SandboxStore,
    private readonly now: () => number,
    seed: number,
    options: SandboxWebhookOptions = {},
    persistence: WebhookRegistryPersistence = {},
  ) {
    const { saved } = persistence;
    this.random = createRandom(saved?.random ?? hashSeed(seed, 'webhooks'));
    this.ids = createIdGenerator(this.random);
    this.changed = persistence.changed ?? (() => undefined);
    for (const hook of saved?.webhooks ?? []) this.webhooks.set(hook.id, hook);
    for (const [baseId, number] of saved?.transactionNumbers ?? []) this.transactionNumbers.set(baseId, number);
    this.pinger = new NotificationPinger(
      {
        delayMs: options.pingDelayMs ?? 100,
        timeoutMs: options.pingTimeoutMs ?? 25_000,
        retryBaseDelayMs: options.retryBaseDelayMs ?? 10_000,
        maxRetries: options.maxRetries ?? 13,
      },
      now,
    );
  }

  /** Without an owner the webhook is the demo user's (as one made with the admin token). */
  create(baseId: string, body: unknown, owner?: WebhookOwner): CreatedWebhook {
    const base = this.store.requireBase(baseId);
    const now = this.sweep();
    const { notificationUrl, specification, resolved } = validateNewWebhook(body, base);
    const ownerKey = owner?.key ?? DEFAULT_OWNER_KEY;
    if (owner?.integration && this.webhooksOf(baseId, ownerKey).length >= MAX_WEBHOOKS_PER_INTEGRATION) {
      throw tooManyIntegrationWebhooks(MAX_WEBHOOKS_PER_INTEGRATION);
    }
    if (this.webhooksOf(baseId).length >= MAX_WEBHOOKS_PER_BASE) throw tooManyWebhooks(MAX_WEBHOOKS_PER_BASE);
    const hook: StoredWebhook = {
      id: this.uniqueId(),
      baseId,
      notificationUrl,
      macSecretBase64: randomBytes(32).toString('base64'),
      specification,
      resolved,
      expiresAt: now + WEBHOOK_LIFETIME_MS,
      failed: false,
      areNotificationsEnabled: notificationUrl !== null,
      cursorForNextPayload: 1,
      payloads: [],
      lastNotificationResult: null,
      lastSuccessfulNotificationTime: null,
      ...(owner ? { owner: owner.key } : {}),
    };
    this.webhooks.set(hook.id, hook);
    this.changed();
    this.requestPing(hook);
    return { id: hook.id, macSecretBase64: hook.macSecretBase64, expirationTime: iso(hook.expiresAt) };
  }

  list(baseId: string, viewer?: string): UpstreamWebhook[] {
    this.store.requireBase(baseId);
    const now = this.sweep();
    return this.webhooksOf(baseId, viewer).map((hook) => ({
      id: hook.id,
      areNotificationsEnabled: hook.areNotificationsEnabled,
      cursorForNextPayload: hook.cursorForNextPayload,
      isHookEnabled: isActive(hook, now),
      lastSuccessfulNotificationTime: hook.lastSuccessfulNotificationTime,
      notificationUrl: hook.notificationUrl,
      expirationTime: iso(hook.expiresAt),
      lastNotificationResult: hook.lastNotificationResult,
      specification: structuredClone(hook.specification),
    }));
  }

  delete(baseId: string, webhookId: string, viewer?: string): void {
    this.remove(this.require(baseId, webhookId, viewer).id);
  }

  refresh(baseId: string, webhookId: string, viewer?: string): { expirationTime: string } {
    const hook = this.require(baseId, webhookId, viewer);
    const now = this.now();
    if (!isActive(hook, now)) throw webhookNotRefreshable();
    hook.expiresAt = now + WEBHOOK_LIFETIME_MS;
    this.changed();
    return { expirationTime: iso(hook.expiresAt) };
  }

  setNotifications(baseId: string, webhookId: string, enable: boolean, viewer?: string): void {
    const hook = this.require(baseId, webhookId, viewer);
    hook.areNotificationsEnabled = enable;
    if (!enable) this.pinger.cancel(webhookId);
    this.changed();
  }

  /** `cursor` ≥ 1, `limit` 1–50 (checked by the route). Listing an active webhook extends its life. */
  listPayloads(baseId: string, webhookId: string, cursor: number, limit: number, viewer?: string): WebhookPayloadPage {
    const hook = this.require(baseId, webhookId, viewer);
    const now = this.now();
    if (isActive(hook, now)) {
      hook.expiresAt = now + WEBHOOK_LIFETIME_MS;
      this.changed();
    }
    const from = hook.payloads.findIndex((stored) => stored.cursor >= cursor);
    const page = from === -1 ? [] : hook.payloads.slice(from, from + limit);
    const last = page.at(-1);
    return {
      cursor: last ? last.cursor + 1 : cursor,
      mightHaveMore: from !== -1 && from + limit < hook.payloads.length,
      payloads: page.map((stored) => stored.payload),
    };
  }

  /**
   * Sandbox control: the webhook expires now, as if its 7 days had passed without a refresh or listing (no new
   * payloads, refresh refused; metadata and payloads stay readable for the retention period).
   */
  expireNow(webhookId: string): { id: string; expirationTime: string } {
    const hook = this.requireAny(webhookId);
    hook.expiresAt = Math.min(hook.expiresAt, this.now());
    this.pinger.cancel(webhookId);
    this.changed();
    return { id: hook.id, expirationTime: iso(hook.expiresAt) };
  }

  /** Sandbox control: deletes the webhook, as its owner can at any time; its payloads go with it. */
  deleteNow(webhookId: string): { id: string } {
    const { id } = this.requireAny(webhookId);
    this.remove(id);
    return { id };
  }

  private remove(webhookId: string): void {
    this.webhooks.delete(webhookId);
    this.pinger.cancel(webhookId);
    this.changed();
  }

  /**
   * Sandbox control: deletes the stored payloads numbered up to `throughCursor` (all of them without it), as the
   * one-week retention does. The cursor numbering goes on (list-webhook-payloads: "never reset, even if payloads are
   * deleted"), so a reader behind the first kept payload sees its cursor jump.
   */
  dropPayloads(webhookId: string, throughCursor?: number): { dropped: number; cursorForNextPayload: number } {
    const hook = this.requireAny(webhookId);
    const kept = hook.payloads.filter((stored) => throughCursor !== undefined && stored.cursor > throughCursor);
    const dropped = hook.payloads.length - kept.length;
    hook.payloads = kept;
    this.changed();
    return { dropped, cursorForNextPayload: hook.cursorForNextPayload };
  }

  /** The webhook's `dataTypes` (which scopes reading its payloads needs); 404 like the other methods. */
  dataTypesOf(baseId: string, webhookId: string, viewer?: string): string[] {
    return [...this.require(baseId, webhookId, viewer).resolved.filters.dataTypes];
  }

  /** Never throws: it runs inside the API request that made the change. */
  handleChange(change: SandboxChange): void {
    const now = this.sweep();
    const transactionNumber = (this.transactionNumbers.get(change.baseId) ?? 0) + 1;
    this.transactionNumbers.set(change.baseId, transactionNumber);
    const common: WebhookPayload = {
      timestamp: iso(now),
      baseTransactionNumber: transactionNumber,
      actionMetadata: toActionMetadata(change.actor, change),
      payloadFormat: 'v0',
    };
    const base = this.store.getBase(change.baseId);
    for (const hook of this.webhooksOf(change.baseId)) {
      if (!isActive(hook, now)) continue;
      const before = hook.cursorForNextPayload;
      try {
        const changes = buildPayloadChanges(change, hook.resolved, base);
        if (changes) this.append(hook, { ...common, ...changes }, now);
        if (invalidatesSpecification(change, hook.resolved)) this.fail(hook, common, 'INVALID_FILTERS', now);
      } catch {
        this.fail(hook, common, 'INTERNAL_ERROR', now);
      }
      if (hook.cursorForNextPayload !== before) this.requestPing(hook);
    }
  }

  /** Stops every pending and in-flight ping; no new ones are sent afterwards. */
  close(): void {
    this.pinger.close();
  }

  /** Everything needed to resume the registry later (shared, not copied: serialise at once). */
  exportState(): WebhooksState {
    return {
      random: this.random.state(),
      webhooks: [...this.webhooks.values()],
      transactionNumbers: [...this.transactionNumbers.entries()],
    };
  }

  private require(baseId: string, webhookId: string, viewer: string | undefined): StoredWebhook {
    this.store.requireBase(baseId);
    this.sweep();
    const hook = this.webhooks.get(webhookId);
    if (!hook || hook.baseId !== baseId || !seenBy(hook, viewer)) throw webhookNotFound(webhookId);
    return hook;
  }

  private requireAny(webhookId: string): StoredWebhook {
    this.sweep();
    const hook = this.webhooks.get(webhookId);
    if (!hook) throw webhookNotFound(webhookId);
    return hook;
  }

  private webhooksOf(baseId: string, viewer?: string): StoredWebhook[] {
    return [...this.webhooks.values()].filter((hook) => hook.baseId === baseId && seenBy(hook, viewer));
  }

  private append(hook: StoredWebhook, payload: WebhookPayload, now: number): void {
    hook.payloads.push({ cursor: hook.cursorForNextPayload, createdAt: now, payload });
    hook.cursorForNextPayload += 1;
  }

  /** The error payload; the webhook stays disabled even if the deleted table or field comes back. */
  private fail(hook: StoredWebhook, common: WebhookPayload, code: ErrorCode, now: number): void {
    this.append(hook, { ...common, error: true, code }, now);
    hook.failed = true;
  }

  /** Forgets webhooks a retention period past expiry and payloads older than the retention; returns the time. */
  private sweep(): number {
    const now = this.now();
    for (const hook of this.webhooks.values()) {
      if (now >= hook.expiresAt + WEBHOOK_RETENTION_MS) {
        this.webhooks.delete(hook.id);
        this.pinger.cancel(hook.id);
        continue;
      }
      const kept = hook.payloads.findIndex((stored) => now - stored.createdAt < WEBHOOK_RETENTION_MS);
      if (kept !== 0) hook.payloads.splice(0, kept === -1 ? hook.payloads.length : kept);
    }
    return now;
  }

  private requestPing(hook: StoredWebhook): void {
    if (hook.notificationUrl !== null && hook.areNotificationsEnabled) this.pinger.request(this.pingSubject(hook));
  }

  private pingSubject(hook: StoredWebhook): PingSubject {
    return {
      webhookId: hook.id,
      baseId: hook.baseId,
      destination: () => {
        const live = this.webhooks.get(hook.id) === hook && hook.areNotificationsEnabled && this.now() < hook.expiresAt;
        return live && hook.notificationUrl !== null ? { url: hook.notificationUrl, macSecretBase64: hook.macSecretBase64 } : null;
      },
      report: (result) => {
        hook.lastNotificationResult = result;
        if (result.success) hook.lastSuccessfulNotificationTime = result.completionTimestamp;
        else if (!result.willBeRetried) hook.areNotificationsEnabled = false;
        this.changed();
      },
    };
  }

  private uniqueId(): string {
    let id = this.ids.next('ach');
    while (this.webhooks.has(id)) id = this.ids.next('ach');
    return id;
  }
}

function seenBy(hook: StoredWebhook, viewer: string | undefined): boolean {
  return viewer === undefined || (hook.owner ?? DEFAULT_OWNER_KEY) === viewer;
}

function isActive(hook: StoredWebhook, now: number): boolean {
  return !hook.failed && now < hook.expiresAt;
}

function iso(time: number): string {
  return new Date(time).toISOString();
}
