import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import { UpstreamWatch } from '../../entities/index.js';
import { isAppError, unauthorized } from '../../errors.js';
import { safeError, type Logger } from '../../logger.js';
import { withCallPurpose } from '../../upstream/call-purpose.js';
import type { UpstreamClient } from '../../upstream/client.js';
import type { UpstreamAccess } from '../connections/upstream-access.js';
import { isUpstreamRequestError } from '../../upstream/upstream-error.js';
import { webhookMac } from '../../upstream/webhook-mac.js';
import type { WebhookSpecification } from '../../upstream/webhook-types.js';
import { isUniqueViolation } from '../../repositories/db-errors.js';
import { KeyedMutex } from '../keyed-mutex.js';
import type { SecretBox } from '../secret-box.js';
import type { WatchedBase } from './change-event.js';
import type { WatchDemand } from './change-pipeline.js';

/** Everything the audit log, forwarding and the mirror need: records, fields, table metadata, previous values, all cells. */
export const WATCH_SPECIFICATION: WebhookSpecification = {
  options: {
    filters: { dataTypes: ['tableData', 'tableFields', 'tableMetadata'] },
    includes: { includeCellValuesInFieldIds: 'all', includePreviousCellValues: true, includePreviousFieldDefinitions: true },
  },
};

export interface UpstreamWatchOptions {
  /** Where the upstream pings; unset: the watch is read by polling only. */
  notificationUrl?: string;
  logger: Logger;
}

/**
 * One upstream webhook per base while any demand of any account (monitoring configs, forwarding webhooks) needs it,
 * shared by all of them: the platform allows 10 webhooks per base and 2 per OAuth integration, and an integration
 * sees only its own. It is created and read through one account's connection, its holder (`accountId`); its changes
 * go to every account that watches the base. When the holder can no longer read it (connection removed, needs
 * re-authorisation, lost access), the watch moves to another account that watches the base, and the gap is logged.
 */
export class UpstreamWatchService {
  private readonly repository: Repository<UpstreamWatch>;
  private readonly demands: WatchDemand[] = [];
  private readonly mutex = new KeyedMutex();
  private readonly pingListeners: Array<(watch: UpstreamWatch) => Promise<void>> = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: UpstreamAccess,
    private readonly secrets: SecretBox,
    private readonly options: UpstreamWatchOptions,
  ) {
    this.repository = dataSource.getRepository(UpstreamWatch);
  }

  addDemand(demand: WatchDemand): void {
    this.demands.push(demand);
  }

  /** The base's watch, whichever account holds it. */
  find(base: Pick<WatchedBase, 'baseId'>): Promise<UpstreamWatch | null> {
    return this.repository.findOneBy({ baseId: base.baseId });
  }

  findById(id: string): Promise<UpstreamWatch | null> {
    return this.repository.findOneBy({ id });
  }

  listAll(): Promise<UpstreamWatch[]> {
    return this.repository.find({ order: { createdAt: 'ASC' } });
  }

  /**
   * Makes sure the base is watched (through the asking account's connection when a watch must be made); idempotent.
   * A watch no one could see any more is made again through the asking account, which has just been found to see it.
   */
  async ensure(base: WatchedBase): Promise<UpstreamWatch> {
    const watch = await this.ensureRow(base);
    return watch.status === 'lost' ? this.recreate(watch, 'an account that sees the base watches it again', base.accountId) : watch;
  }

  private ensureRow(base: WatchedBase): Promise<UpstreamWatch> {
    return this.asWebhookWork(keyOf(base), async () => {
      const existing = await this.find(base);
      if (existing) return existing;
      const created = await this.createUpstream(base.accountId, base.baseId);
      const now = new Date();
      const watch = Object.assign(new UpstreamWatch(), {
        id: randomUUID(),
        accountId: base.accountId,
        baseId: base.baseId,
        webhookId: created.id,
        macSecret: this.secrets.seal(created.macSecretBase64),
        payloadCursor: 1,
        tableNames: '{}',
        status: 'active',
        expiresAt: created.expirationTime ? new Date(created.expirationTime) : null,
        lastReadAt: null,
        lastPingAt: null,
        createdAt: now,
        continuousSince: null,
        updatedAt: now,
      });
      try {
        await this.repository.insert(watch);
      } catch (error) {
        // Another process (or account) watched it first: keep theirs, drop ours.
        await this.deleteUpstream(base.accountId, base.baseId, created.id);
        if (isUniqueViolation(error)) return (await this.find(base))!;
        throw error;
      }
      this.options.logger.info({ baseId: base.baseId, webhookId: created.id }, 'upstream watch created');
      return watch;
    });
  }

  /** Stops watching when no demand of any account needs the base any more. */
  release(base: WatchedBase): Promise<void> {
    return this.asWebhookWork(keyOf(base), async () => {
      const watch = await this.removeUnneeded(base);
      if (!watch) return;
      await this.deleteUpstream(watch.accountId, watch.baseId, watch.webhookId);
      this.options.logger.info({ baseId: base.baseId, webhookId: watch.webhookId }, 'upstream watch removed');
    });
  }

  /**
   * Deletes the watch row when no demand needs the base, in one transaction that deletes first (taking the write
   * lock) and checks after: a demand another process records meanwhile is either seen (the row stays) or committed
   * later, and then its own `ensure` finds no watch and creates one.
   */
  private async removeUnneeded(base: WatchedBase): Promise<UpstreamWatch | null> {
    const stillNeeded = new Error('still needed');
    try {
      return await this.dataSource.transaction(async (manager) => {
        const watch = await manager.findOneBy(UpstreamWatch, { baseId: base.baseId });
        if (!watch) return null;
        await manager.delete(UpstreamWatch, { id: watch.id });
        if (await this.isNeeded(manager, base)) throw stillNeeded;
        return watch;
      });
    } catch (error) {
      if (error === stillNeeded) return null;
      throw error;
    }
  }

  /** Start-up: a watch for every base some demand needs (a crash may have left one out). */
  async reconcile(): Promise<number> {
    const needed = new Map<string, WatchedBase>();
    for (const demand of this.demands) {
      for (const base of await demand.all(this.dataSource.manager)) needed.set(keyOf(base), base);
    }
    let created = 0;
    for (const base of needed.values()) {
      if (await this.find(base)) continue;
      // One account that cannot reach the upstream must not stop the others' watches (nor the start-up).
      try {
        await this.ensure(base);
        created += 1;
      } catch (error) {
        this.options.logger.warn({ err: safeError(error), baseId: base.baseId, accountId: base.accountId }, 'could not watch a base');
      }
    }
    return created;
  }

  /** A verified ping: noted (an ingestion already running reads once more) and handed to the listeners. */
  async acceptPing(rawBody: Buffer, macHeader: string | undefined): Promise<void> {
    const watch = await this.verifyPing(rawBody, macHeader);
    await this.repository.update({ id: watch.id }, { lastPingAt: new Date() });
    for (const listener of this.pingListeners) await listener(watch);
  }

  onPing(listener: (watch: UpstreamWatch) => Promise<void>): void {
    this.pingListeners.push(listener);
  }

  /** The watch a ping is for, when its MAC is right; 401 otherwise (nothing is read or enqueued). */
  async verifyPing(rawBody: Buffer, macHeader: string | undefined): Promise<UpstreamWatch> {
    let webhookId: unknown;
    try {
      webhookId = (JSON.parse(rawBody.toString('utf8')) as { webhook?: { id?: unknown } }).webhook?.id;
    } catch {
      webhookId = undefined;
    }
    const watch = typeof webhookId === 'string' ? await this.repository.findOneBy({ webhookId }) : null;
    if (!watch || !macHeader) throw unauthorized('Missing or invalid notification MAC');
    const expected = Buffer.from(webhookMac(this.secrets.open(watch.macSecret), rawBody));
    const given = Buffer.from(macHeader.trim());
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw unauthorized('Missing or invalid notification MAC');
    }
    return watch;
  }

  /**
   * Daily upkeep of every watch: a webhook the upstream disabled (error state, expiry) is re-created and the gap
   * logged; pings switched off after failed deliveries are switched on; the rest are refreshed for 7 more days.
   */
  maintain(): Promise<{ refreshed: number; recreated: number }> {
    return withCallPurpose('webhooks', () => this.maintainEach());
  }

  private async maintainEach(): Promise<{ refreshed: number; recreated: number }> {
    let refreshed = 0;
    let recreated = 0;
    // Watches seen through one connection share one listing of the base's webhooks.
    const hooksOf = new Map<string, ReturnType<UpstreamClient['listWebhooks']>>();
    for (const watch of await this.listAll()) {
      if (watch.status === 'lost') {
        if (await this.revive(watch)) recreated += 1;
        continue;
      }
      try {
        const upstream = await this.access.forAccount(watch.accountId);
        const listing = `${watch.accountId}:${watch.baseId}`;
        if (!hooksOf.has(listing)) hooksOf.set(listing, upstream.listWebhooks(watch.baseId));
        const hooks = await hooksOf.get(listing)!;
        const hook = hooks.find((h) => h.id === watch.webhookId);
        if (!hook?.isHookEnabled || watch.status === 'error') {
          await this.recreate(watch, hook ? 'the upstream disabled the webhook' : 'the upstream webhook is gone');
          recreated += 1;
          continue;
        }
        if (this.options.notificationUrl && !hook.areNotificationsEnabled) {
          await upstream.setWebhookNotifications(watch.baseId, watch.webhookId, true);
        }
        const { expirationTime } = await upstream.refreshWebhook(watch.baseId, watch.webhookId);
        await this.repository.update(
          { id: watch.id },
          { expiresAt: expirationTime ? new Date(expirationTime) : null, updatedAt: new Date() },
        );
        refreshed += 1;
      } catch (error) {
        if (isHolderLoss(error) && (await this.moveHolder(watch, holderLossReason(error)))) {
          recreated += 1;
          continue;
        }
        this.options.logger.warn({ err: safeError(error), baseId: watch.baseId }, 'upstream watch upkeep failed');
      }
    }
    return { refreshed, recreated };
  }

  /**
   * Replaces a webhook the upstream will not serve any more. Changes made between the last payload read and the
   * new webhook cannot be recovered from the upstream: that gap is logged.
   */
  recreate(watch: UpstreamWatch, reason: string, holder = watch.accountId): Promise<UpstreamWatch> {
    return this.asWebhookWork(keyOf(watch), async () => {
      // Another run (or process) may have replaced or released it since this one read it: theirs stands.
      const current = await this.repository.findOneBy({ id: watch.id });
      if (!current || current.webhookId !== watch.webhookId) return current ?? watch;
      const created = await this.createUpstream(holder, watch.baseId);
      const old = watch.webhookId;
      const oldHolder = watch.accountId;
      const replacement = {
        accountId: holder,
        webhookId: created.id,
        macSecret: this.secrets.seal(created.macSecretBase64),
        payloadCursor: 1,
        status: 'active' as const,
        expiresAt: created.expirationTime ? new Date(created.expirationTime) : null,
        // Changes between the old webhook's last read and now may be missing from the log.
        continuousSince: new Date(),
        updatedAt: new Date(),
      };
      const { affected } = await this.repository.update({ id: watch.id, webhookId: old }, replacement);
      if (!affected) {
        await this.deleteUpstream(holder, watch.baseId, created.id);
        return (await this.repository.findOneBy({ id: watch.id })) ?? watch;
      }
      Object.assign(watch, replacement);
      await this.deleteUpstream(oldHolder, watch.baseId, old);
      this.options.logger.warn(
        { baseId: watch.baseId, oldWebhookId: old, webhookId: created.id, gapSince: watch.lastReadAt?.toISOString() ?? null, reason },
        'upstream watch re-created: changes since gapSince may be missing from the audit log',
      );
      return watch;
    });
  }

  /**
   * The payload read answered 404: when the holder's list of the base's webhooks confirms that the webhook is gone
   * (deleted by hand or by the platform, or made by another upstream user than the connection's now), it is made again
   * through the holder's connection and the gap logged. `listed` when the holder still lists it (the 404 was something
   * else: nothing changes, the next poll reads again); null when the check or the re-creation fails (the holder may
   * have lost the base: moveHolder looks further).
   */
  async replaceGone(watch: UpstreamWatch): Promise<UpstreamWatch | 'listed' | null> {
    try {
      const hooks = await withCallPurpose('webhooks', async () =>
        (await this.access.forAccount(watch.accountId)).listWebhooks(watch.baseId),
      );
      if (hooks.some((hook) => hook.id === watch.webhookId)) return 'listed';
      return await this.recreate(watch, 'the upstream webhook is gone');
    } catch (error) {
      this.options.logger.warn({ err: safeError(error), baseId: watch.baseId }, 'could not re-create a webhook the upstream no longer has');
      return null;
    }
  }

  /**
   * The holder cannot read the watch any more: another account that watches the base and can reach the upstream
   * re-creates it with its own connection (the gap since the last read is logged). Null when no account can.
   */
  async moveHolder(watch: UpstreamWatch, reason: string): Promise<UpstreamWatch | null> {
    const candidates = (await this.accountsWatching(watch.baseId)).filter((accountId) => accountId !== watch.accountId);
    for (const accountId of candidates) {
      if (!(await this.access.canReach(accountId))) continue;
      try {
        const moved = await this.recreate(watch, `${reason}; moved to another account's connection`, accountId);
        this.options.logger.warn({ baseId: watch.baseId, holder: accountId }, 'upstream watch moved to another account');
        return moved;
      } catch (error) {
        this.options.logger.warn(
          { err: safeError(error), baseId: watch.baseId, candidate: accountId },
          'could not move the upstream watch',
        );
      }
    }
    return null;
  }

  /**
   * After the holder was found no longer to see the base (and no other account took the watch over): when no account
   * watching the base sees it, the watch is marked lost and not read again until one does (the daily upkeep and a new
   * demand look), instead of failing every poll. True when marked.
   */
  async markLostIfUnseen(watch: UpstreamWatch): Promise<boolean> {
    for (const accountId of await this.accountsWatching(watch.baseId)) {
      if ((await this.access.canReach(accountId)) && (await this.access.sees(accountId, watch.baseId))) return false;
    }
    await this.repository.update({ id: watch.id, webhookId: watch.webhookId }, { status: 'lost', updatedAt: new Date() });
    this.options.logger.warn(
      { baseId: watch.baseId, webhookId: watch.webhookId, gapSince: watch.lastReadAt?.toISOString() ?? null },
      'upstream watch lost: no account watching the base sees it any more; it is not read until one does',
    );
    return true;
  }

  /** A lost watch made again through the first account watching the base that sees it now; null when none does. */
  private async revive(watch: UpstreamWatch): Promise<UpstreamWatch | null> {
    for (const accountId of await this.accountsWatching(watch.baseId)) {
      if (!(await this.access.canReach(accountId)) || !(await this.access.sees(accountId, watch.baseId))) continue;
      try {
        return await this.recreate(watch, 'an account that sees the base watches it again', accountId);
      } catch (error) {
        this.options.logger.warn({ err: safeError(error), baseId: watch.baseId, candidate: accountId }, 'could not watch a base again');
      }
    }
    return null;
  }

  /** Every account that needs the base (configs, forwarding webhooks), oldest demand first within each kind. */
  async accountsWatching(baseId: string): Promise<string[]> {
    const accounts = new Set<string>();
    for (const demand of this.demands) for (const id of await demand.accounts(this.dataSource.manager, baseId)) accounts.add(id);
    return [...accounts];
  }

  /**
   * The accounts watching the base that get none of its changes now: their connection cannot reach the upstream, or
   * does not see the base (any more).
   */
  async pausedAccounts(baseId: string): Promise<Set<string>> {
    const paused = new Set<string>();
    for (const accountId of await this.accountsWatching(baseId)) {
      if (!(await this.access.canReach(accountId)) || !(await this.access.sees(accountId, baseId))) paused.add(accountId);
    }
    return paused;
  }

  async markError(watch: UpstreamWatch): Promise<void> {
    await this.repository.update({ id: watch.id }, { status: 'error', updatedAt: new Date() });
  }

  /** One base's webhook work: one at a time per base, its upstream requests counted as `webhooks`. */
  private asWebhookWork<T>(key: string, work: () => Promise<T>): Promise<T> {
    return withCallPurpose('webhooks', () => this.mutex.run(key, work));
  }

  private async isNeeded(manager: EntityManager, base: WatchedBase): Promise<boolean> {
    for (const demand of this.demands) if (await demand.needs(manager, base)) return true;
    return false;
  }

  private async createUpstream(accountId: string, baseId: string) {
    return (await this.access.forAccount(accountId)).createWebhook(baseId, {
      notificationUrl: this.options.notificationUrl,
      specification: WATCH_SPECIFICATION,
    });
  }

  private async deleteUpstream(accountId: string, baseId: string, webhookId: string): Promise<void> {
    try {
      await (await this.access.forAccount(accountId)).deleteWebhook(baseId, webhookId);
    } catch (error) {
      this.options.logger.warn({ err: safeError(error), baseId, webhookId }, 'could not delete an upstream webhook');
    }
  }
}

const keyOf = (base: Pick<WatchedBase, 'baseId'>) => base.baseId;

/** The upstream answered 404 for the webhook itself (403 INVALID_PERMISSIONS… is how it hides a base). */
export function isWebhookGone(error: unknown): boolean {
  return isUpstreamRequestError(error) && error.upstreamStatus === 404;
}

/** The holder's connection cannot read the watch: gone, needing re-authorisation, or no longer allowed the base. */
export function isHolderLoss(error: unknown): boolean {
  if (isAppError(error) && error.code === 'upstream_not_connected') return true;
  return isUpstreamRequestError(error) && [401, 403, 404].includes(error.upstreamStatus ?? 0);
}

export function holderLossReason(error: unknown): string {
  return isAppError(error) && error.code === 'upstream_not_connected'
    ? 'the holder account’s upstream connection needs re-authorisation or is gone'
    : 'the holder account’s connection may no longer read the webhook';
}
