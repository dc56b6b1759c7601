import { randomUUID } from 'node:crypto';
import type { DataSource, Repository } from 'typeorm';
import type { Quotas } from '../config.js';
import { UsageBase } from '../entities/index.js';
import { conflict, notFound, upstreamBaseNotFound } from '../errors.js';
import type { UpstreamAccess } from './connections/upstream-access.js';
import { isUniqueViolation } from '../repositories/db-errors.js';
import { EntityLookup } from '../repositories/entity-lookup.js';
import { Quota } from './quota.js';
import { isServiceId, notFoundById } from './service-id.js';

export interface CreateUsageBaseInput {
  baseId: string;
  baseName?: string;
  scheduledHour?: number;
  timezone?: string;
}

export interface UpdateUsageBaseInput {
  baseName?: string;
  scheduledHour?: number;
  timezone?: string;
}

/** Told of every change of a tracked base (the scheduler keeps each base's daily job in step with its row). */
export interface UsageBaseListener {
  saved(base: UsageBase): Promise<void>;
  removed(base: UsageBase): Promise<void>;
}

/** The tracked bases of an account: what is counted, when, and in which zone. */
export class UsageBaseService {
  private readonly repository: Repository<UsageBase>;
  private readonly byIdAndAccount: EntityLookup<UsageBase>;
  private readonly listeners: UsageBaseListener[] = [];
  private readonly quota: Quota;

  constructor(
    dataSource: DataSource,
    private readonly access: UpstreamAccess,
    quotas: Pick<Quotas, 'trackedBasesPerAccount'>,
  ) {
    this.repository = dataSource.getRepository(UsageBase);
    this.byIdAndAccount = new EntityLookup(dataSource, UsageBase, ['id', 'accountId']);
    this.quota = new Quota('trackedBasesPerAccount', quotas.trackedBasesPerAccount, 'tracked bases', 'stop tracking one');
  }

  onChange(listener: UsageBaseListener): void {
    this.listeners.push(listener);
  }

  async list(accountId: string): Promise<UsageBase[]> {
    return this.repository.find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Ids of the listed bases whose upstream base the account's connection no longer sees (see get). */
  async lostAmong(accountId: string, bases: Array<Pick<UsageBase, 'id' | 'baseId'>>): Promise<Set<string>> {
    const lost = await this.access.lostBases(
      accountId,
      bases.map((base) => base.baseId),
    );
    return new Set(bases.filter((base) => lost.has(base.baseId)).map((base) => base.id));
  }

  /** Whether the account's connection no longer sees the tracked base's upstream base (the daily count skips it). */
  async isLost(base: UsageBase): Promise<boolean> {
    return this.access.isLost(base.accountId, base.baseId);
  }

  /**
   * The account's tracked base, for every endpoint but DELETE: one whose upstream base the account's connection no
   * longer sees is not_found, like another account's (CONTRACT §8).
   */
  async get(accountId: string, id: string): Promise<UsageBase> {
    const base = await this.owned(accountId, id);
    if (await this.access.isLost(accountId, base.baseId)) throw notFound('Usage base');
    return base;
  }

  /** The account's tracked base whether its connection still sees it or not (DELETE; GraphQL's loader). */
  async owned(accountId: string, id: string): Promise<UsageBase> {
    if (!isServiceId(id)) throw notFoundById('Usage base', id);
    const base = await this.byIdAndAccount.one(id, accountId);
    if (!base) throw notFound('Usage base');
    return base;
  }

  /** Every tracked base of every account, oldest first (the scheduler's reconcile). */
  async listAll(): Promise<UsageBase[]> {
    return this.repository.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async findById(id: string): Promise<UsageBase | null> {
    return this.repository.findOneBy({ id });
  }

  async create(accountId: string, input: CreateUsageBaseInput): Promise<UsageBase> {
    if (await this.repository.existsBy({ accountId, baseId: input.baseId })) {
      throw conflict(`Base ${input.baseId} is tracked already`);
    }
    return this.quota.run(accountId, () => this.insertWithinQuota(accountId, input));
  }

  private async insertWithinQuota(accountId: string, input: CreateUsageBaseInput): Promise<UsageBase> {
    const tracked = () => this.repository.countBy({ accountId });
    await this.quota.requireRoom(tracked);
    const upstreamBase = (await this.access.listBases(accountId)).find((b) => b.id === input.baseId);
    if (!upstreamBase) throw upstreamBaseNotFound(input.baseId);
    const now = new Date();
    const base = Object.assign(new UsageBase(), {
      id: randomUUID(),
      accountId,
      baseId: input.baseId,
      baseName: input.baseName ?? upstreamBase.name,
      scheduledHour: input.scheduledHour ?? 0,
      timezone: input.timezone ?? 'UTC',
      createdAt: now,
      updatedAt: now,
      countLockToken: null,
      countLockUntil: null,
      snapshotVersion: 0,
    });
    try {
      await this.repository.insert(base);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`Base ${input.baseId} is tracked already`);
      throw error;
    }
    await this.quota.keepWithin(tracked, () => this.repository.delete({ id: base.id }));
    for (const listener of this.listeners) await listener.saved(base);
    return base;
  }

  async update(accountId: string, id: string, input: UpdateUsageBaseInput): Promise<UsageBase> {
    const base = await this.get(accountId, id);
    const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    const changed = Object.entries(changes).some(([key, value]) => base[key as keyof UsageBase] !== value);
    if (!changed) return base;
    Object.assign(base, changes, { updatedAt: new Date() });
    await this.repository.update(
      { id: base.id },
      { baseName: base.baseName, scheduledHour: base.scheduledHour, timezone: base.timezone, updatedAt: base.updatedAt },
    );
    for (const listener of this.listeners) await listener.saved(base);
    return base;
  }

  /** Stops tracking: the base's snapshots and runs go with it (foreign key cascade), and its job is removed. */
  async remove(accountId: string, id: string): Promise<void> {
    // A base the connection no longer sees can still be removed: the row is the account's own, and says nothing new.
    const base = await this.owned(accountId, id);
    await this.repository.delete({ id: base.id });
    for (const listener of this.listeners) await listener.removed(base);
  }
}
