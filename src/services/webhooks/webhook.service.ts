import { randomUUID } from 'node:crypto';
import type { Quotas } from '../../config.js';
import { Not, type DataSource, type EntityManager, type Repository } from 'typeorm';
import { Webhook, WebhookDelivery, type WebhookDeactivationReason } from '../../entities/index.js';
import { AppError, invalidRequest, notFound, upstreamBaseNotFound } from '../../errors.js';
import { safeError, type Logger } from '../../logger.js';
import { webhookAccountsOf, webhookBases } from '../../repositories/watch-demand.repository.js';
import type { UpstreamTable } from '../../upstream/types.js';
import type { WatchedBase } from '../audit/change-event.js';
import type { WatchDemand } from '../audit/change-pipeline.js';
import type { SecretBox } from '../secret-box.js';
import { Quota } from '../quota.js';
import { isServiceId } from '../service-id.js';
import { createSigningSecret } from './signature.js';
import { UnsafeWebhookUrl, type WebhookUrlGuard } from './url-guard.js';
import { forwardsChanges, targetOf, USAGE_THRESHOLD_EVENT, type WebhookTarget } from './webhook-rules.js';

/** How long the secret before a rotation keeps signing, as a second signature. */
const PREVIOUS_SECRET_LIFETIME_MS = 24 * 3_600_000;
const OPENED_SECRETS_CACHED = 10_000;

export interface CreateWebhookInput {
  baseId: string;
  event: string;
  tableId?: string;
  columnId?: string | null;
  webhookUrl: string;
  coalesceUpdates?: boolean;
}

/** The upstream watch of a base exists while some demand of any account needs it (UpstreamWatchService). */
export interface BaseWatches {
  ensure(base: WatchedBase): Promise<unknown>;
  release(base: WatchedBase): Promise<void>;
}

export interface TableLookup {
  listTables(accountId: string, baseId: string): Promise<UpstreamTable[]>;
  /** Which of the bases the account's connection no longer sees. */
  lostBases(accountId: string, baseIds: Iterable<string>): Promise<Set<string>>;
}

/**
 * Forwarding webhooks of an account: create (checked target, guarded URL, a base the upstream has), list the
 * active ones, delete (deactivate), rotate the signing secret. Also the demand that keeps their bases watched.
 */
export class WebhookService implements WatchDemand {
  private readonly repository: Repository<Webhook>;
  private readonly opened = new Map<string, string>();
  private readonly quota: Quota;

  constructor(
    private readonly dataSource: DataSource,
    private readonly guard: WebhookUrlGuard,
    private readonly secrets: SecretBox,
    private readonly tables: TableLookup,
    private readonly watches: BaseWatches,
    private readonly logger: Logger,
    quotas: Pick<Quotas, 'webhooksPerBase'>,
  ) {
    this.repository = dataSource.getRepository(Webhook);
    // Each active webhook is one more POST for every change of its base: the quota bounds that fan-out.
    this.quota = new Quota('webhooksPerBase', quotas.webhooksPerBase, 'active webhooks', 'delete one');
  }

  /** Active webhooks of the account, oldest first; only those of one upstream base when `baseId` is given. */
  list(accountId: string, baseId?: string): Promise<Webhook[]> {
    return this.repository.find({
      where: { accountId, active: true, ...(baseId === undefined ? {} : { baseId }) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** Ids of the listed webhooks whose base the account's connection no longer sees (see get). */
  async lostAmong(accountId: string, webhooks: Array<Pick<Webhook, 'id' | 'baseId'>>): Promise<Set<string>> {
    const lost = await this.tables.lostBases(
      accountId,
      webhooks.map((webhook) => webhook.baseId),
    );
    return new Set(webhooks.filter((webhook) => lost.has(webhook.baseId)).map((webhook) => webhook.id));
  }

  /**
   * A webhook of the account, active or not (its delivery log outlives it); one of a base the account's connection
   * no longer sees is not_found, like another account's (CONTRACT §8).
   */
  async get(accountId: string, id: string): Promise<Webhook> {
    const webhook = isServiceId(id) ? await this.repository.findOneBy({ id, accountId }) : null;
    if (!webhook || (await this.tables.lostBases(accountId, [webhook.baseId])).size > 0) throw notFound('Webhook');
    return webhook;
  }

  /** An active webhook of the account: a deleted or deactivated one can no longer be changed. */
  async getActive(accountId: string, id: string): Promise<Webhook> {
    return activeOnly(await this.get(accountId, id));
  }

  /** An active webhook of the account whether its connection still sees the base or not (DELETE; GraphQL's loader). */
  async ownedActive(accountId: string, id: string): Promise<Webhook> {
    return activeOnly(isServiceId(id) ? await this.repository.findOneBy({ id, accountId }) : null);
  }

  async create(accountId: string, input: CreateWebhookInput): Promise<{ webhook: Webhook; secret: string }> {
    const target = targetOf(input);
    let webhookUrl: string;
    try {
      webhookUrl = (await this.guard.check(input.webhookUrl)).url.href;
    } catch (error) {
      if (error instanceof UnsafeWebhookUrl) throw invalidRequest(`webhookUrl ${error.message}`);
      throw error;
    }
    const onBase = () => this.repository.countBy({ accountId, baseId: input.baseId, active: true });
    const where = ` on base ${input.baseId}`;
    return this.quota.run(`${accountId}:${input.baseId}`, async () => {
      await this.quota.requireRoom(onBase, where);
      await this.checkUpstreamTarget(accountId, input.baseId, target);
      const secret = createSigningSecret();
      const now = new Date();
      const webhook = Object.assign(new Webhook(), {
        id: randomUUID(),
        accountId,
        baseId: input.baseId,
        ...target,
        webhookUrl,
        coalesceUpdates: input.coalesceUpdates ?? false,
        secret: this.secrets.seal(secret),
        previousSecret: null,
        previousSecretExpiresAt: null,
        active: true,
        deactivatedAt: null,
        deactivationReason: null,
        failingSince: null,
        createdAt: now,
        updatedAt: now,
      });
      await this.repository.insert(webhook);
      await this.quota.keepWithin(onBase, () => this.repository.delete({ id: webhook.id }), where);
      if (!forwardsChanges(webhook)) return { webhook, secret };
      try {
        await this.watches.ensure({ accountId, baseId: webhook.baseId });
      } catch (error) {
        // Without an upstream watch the webhook would never fire: take it back and report the upstream failure.
        await this.repository.delete({ id: webhook.id });
        throw error;
      }
      return { webhook, secret };
    });
  }

  /** DELETE: the webhook stops being active; its pending deliveries are dropped, its delivery log is kept. */
  async remove(accountId: string, id: string): Promise<void> {
    // A webhook of a base the connection no longer sees can still be removed (its row is the account's own).
    await this.deactivate(await this.ownedActive(accountId, id), 'deleted');
  }

  /** A new secret; the old one keeps signing, as a second signature, for 24 hours. */
  async rotateSecret(accountId: string, id: string): Promise<string> {
    const webhook = await this.getActive(accountId, id);
    const secret = createSigningSecret();
    const now = new Date();
    await this.repository.update(
      { id: webhook.id },
      {
        secret: this.secrets.seal(secret),
        previousSecret: webhook.secret,
        previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_LIFETIME_MS),
        updatedAt: now,
      },
    );
    return secret;
  }

  /** The plain secrets that sign a delivery now: the current one, then the previous one while it lives. */
  signingSecrets(webhook: Webhook, now = new Date()): string[] {
    const secrets = [this.open(webhook.secret)];
    if (webhook.previousSecret && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > now) {
      secrets.push(this.open(webhook.previousSecret));
    }
    return secrets;
  }

  /** Opened secrets by sealed form: every delivery is signed, and opening costs a decryption. */
  private open(sealed: string): string {
    let secret = this.opened.get(sealed);
    if (secret === undefined) {
      if (this.opened.size >= OPENED_SECRETS_CACHED) this.opened.clear();
      secret = this.secrets.open(sealed);
      this.opened.set(sealed, secret);
    }
    return secret;
  }

  /** Ends a webhook (deleted, 410 Gone, failing too long): not active, pending deliveries failed, base released. */
  async deactivate(webhook: Webhook, reason: WebhookDeactivationReason): Promise<void> {
    const now = new Date();
    const changed = await this.dataSource.transaction(async (manager) => {
      const result = await manager.update(
        Webhook,
        { id: webhook.id, active: true },
        { active: false, deactivatedAt: now, deactivationReason: reason, updatedAt: now },
      );
      if (result.affected !== 1) return false;
      await manager.update(
        WebhookDelivery,
        { webhookId: webhook.id, status: 'pending' },
        { status: 'failed', leaseToken: null, leaseUntil: null, updatedAt: now },
      );
      return true;
    });
    if (!changed) return;
    this.logger.info({ webhookId: webhook.id, reason }, 'webhook deactivated');
    if (!forwardsChanges(webhook)) return;
    try {
      await this.watches.release({ accountId: webhook.accountId, baseId: webhook.baseId });
    } catch (error) {
      this.logger.warn({ err: safeError(error), baseId: webhook.baseId }, 'could not release the upstream watch');
    }
  }

  // WatchDemand: a base is watched while the account has an active webhook of its changes on it.
  needs(manager: EntityManager, base: WatchedBase): Promise<boolean> {
    return manager.existsBy(Webhook, { baseId: base.baseId, active: true, event: Not(USAGE_THRESHOLD_EVENT) });
  }

  accounts(manager: EntityManager, baseId: string): Promise<string[]> {
    return webhookAccountsOf(manager, baseId, USAGE_THRESHOLD_EVENT);
  }

  all(manager: EntityManager): Promise<WatchedBase[]> {
    return webhookBases(manager, USAGE_THRESHOLD_EVENT);
  }

  /** The base must exist upstream (else 400); so must the table and the column the webhook names. */
  private async checkUpstreamTarget(accountId: string, baseId: string, target: WebhookTarget): Promise<void> {
    let tables: UpstreamTable[];
    try {
      tables = await this.tables.listTables(accountId, baseId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        throw upstreamBaseNotFound(baseId);
      }
      throw error;
    }
    if (target.tableId === '') return;
    const table = tables.find((t) => t.id === target.tableId);
    if (!table) throw invalidRequest(`Base ${baseId} has no table ${target.tableId}`);
    if (target.columnId !== null && !table.fields.some((f) => f.id === target.columnId)) {
      throw invalidRequest(`Table ${target.tableId} has no field ${target.columnId}`);
    }
  }
}

function activeOnly(webhook: Webhook | null): Webhook {
  if (!webhook?.active) throw notFound('Webhook');
  return webhook;
}
