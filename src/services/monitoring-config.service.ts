import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager, Repository } from 'typeorm';
import type { Quotas } from '../config.js';
import { ChangeOutbox, MonitoringConfig } from '../entities/index.js';
import { conflict, invalidRequest, notFound, upstreamBaseNotFound } from '../errors.js';
import { safeError, type Logger } from '../logger.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamAccess } from './connections/upstream-access.js';
import type { UpstreamTable } from '../upstream/types.js';
import type { MonitoringScope, WatchedBase } from './audit/change-event.js';
import type { WatchDemand } from './audit/change-pipeline.js';
import { CHANGES_TABLE_FIELDS, DEFAULT_CHANGES_TABLE_NAME } from './audit/changes-table.js';
import type { UpstreamWatchService } from './audit/upstream-watch.service.js';
import { isUniqueViolation } from '../repositories/db-errors.js';
import { EntityLookup } from '../repositories/entity-lookup.js';
import { MonitoringConfigClaims } from '../repositories/monitoring-config-claims.js';
import { monitoredBases, monitoringAccountsOf } from '../repositories/watch-demand.repository.js';
import { Quota } from './quota.js';
import { isServiceId, notFoundById } from './service-id.js';

export interface CreateMonitoringConfigInput {
  baseId: string;
  monitoringBaseId: string;
  monitoringTableId?: string;
  scope?: MonitoringScope;
  timezone?: string;
  workspaceId?: string;
}

export interface UpdateMonitoringConfigInput {
  scope?: MonitoringScope;
  timezone?: string;
}

/** A config as a change list names it: the config and the Changes table it logs into. */
export type ChangeLogTarget = Pick<MonitoringConfig, 'id' | 'monitoringBaseId' | 'monitoringTableId' | 'changesVersion'>;

/** Told when a base gains its first config or may have lost its last (the mirror follows). */
export interface MonitoredBaseListener {
  watched(baseId: string): Promise<void>;
  released(baseId: string): Promise<unknown>;
}

/** Monitoring configs: which base is logged, into which Changes table, with what scope. */
export class MonitoringConfigService implements WatchDemand {
  private readonly repository: Repository<MonitoringConfig>;
  private readonly baseListeners: MonitoredBaseListener[] = [];
  private readonly byIdAndAccount: EntityLookup<MonitoringConfig>;
  private readonly claims: MonitoringConfigClaims;
  private readonly quota: Quota;

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: UpstreamAccess,
    private readonly watches: UpstreamWatchService,
    private readonly logger: Logger,
    quotas: Pick<Quotas, 'monitoringConfigsPerAccount'>,
  ) {
    this.repository = dataSource.getRepository(MonitoringConfig);
    this.byIdAndAccount = new EntityLookup(dataSource, MonitoringConfig, ['id', 'accountId']);
    this.claims = new MonitoringConfigClaims(dataSource);
    this.quota = new Quota('monitoringConfigsPerAccount', quotas.monitoringConfigsPerAccount, 'monitoring configs', 'delete one');
    watches.addDemand(this);
  }

  list(accountId: string): Promise<MonitoringConfig[]> {
    return this.repository.find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Ids of the listed configs whose monitored base the account's connection no longer sees (see get). */
  async lostAmong(accountId: string, configs: Array<Pick<MonitoringConfig, 'id' | 'baseId'>>): Promise<Set<string>> {
    const lost = await this.access.lostBases(
      accountId,
      configs.map((config) => config.baseId),
    );
    return new Set(configs.filter((config) => lost.has(config.baseId)).map((config) => config.id));
  }

  addBaseListener(listener: MonitoredBaseListener): void {
    this.baseListeners.push(listener);
  }

  /**
   * The account's config, for every endpoint but DELETE: one whose monitored base the account's connection no longer
   * sees is not_found, like another account's (CONTRACT §8).
   */
  async get(accountId: string, id: string): Promise<MonitoringConfig> {
    const config = await this.owned(accountId, id);
    if (await this.access.isLost(accountId, config.baseId)) throw notFound('Monitoring config');
    return config;
  }

  /** The account's config whether its connection still sees the monitored base or not (DELETE; GraphQL's loader). */
  async owned(accountId: string, id: string): Promise<MonitoringConfig> {
    if (!isServiceId(id)) throw notFoundById('Monitoring config', id);
    const config = await this.byIdAndAccount.one(id, accountId);
    if (!config) throw notFound('Monitoring config');
    return config;
  }

  /** What get() checks, answering only where the config logs to (it leads every change-list page). */
  async logTarget(accountId: string, id: string): Promise<ChangeLogTarget> {
    const { monitoringBaseId, monitoringTableId, changesVersion } = await this.get(accountId, id);
    return { id, monitoringBaseId, monitoringTableId, changesVersion };
  }

  findById(id: string): Promise<MonitoringConfig | null> {
    return this.repository.findOneBy({ id });
  }

  /**
   * Checks both bases upstream, creates the Changes table when no table is given (or adds the missing columns to
   * the given one), stores the config and makes sure the base is watched. An identical config (the same base into
   * the same monitoring base with the same scope, or into the same given table) is refused with its id, and a second
   * create of the base into that monitoring base while one runs is refused: nothing is made upstream twice.
   */
  create(accountId: string, input: CreateMonitoringConfigInput): Promise<MonitoringConfig> {
    return this.quota.run(accountId, () => this.createWithinQuota(accountId, input));
  }

  private async createWithinQuota(accountId: string, input: CreateMonitoringConfigInput): Promise<MonitoringConfig> {
    const held = () => this.repository.countBy({ accountId });
    await this.quota.requireRoom(held);
    const upstream = await this.access.forAccount(accountId);
    const bases = await this.access.listBases(accountId);
    const monitored = bases.find((b) => b.id === input.baseId);
    if (!monitored) throw upstreamBaseNotFound(input.baseId);
    const monitoring = bases.find((b) => b.id === input.monitoringBaseId);
    if (!monitoring) throw upstreamBaseNotFound(input.monitoringBaseId);
    const claim = { accountId, baseId: monitored.id, monitoringBaseId: monitoring.id };
    const busy = () =>
      conflict(
        `A monitoring config of base ${monitored.id} into base ${monitoring.id} is being created already: try again once it is done`,
      );
    return this.claims.run(claim, busy, async () => {
      await this.refuseIdentical(accountId, input);
      const table = await this.changesTable(upstream, input.monitoringBaseId, input.monitoringTableId);
      const config = this.newConfig(accountId, input, monitored, monitoring, table);
      try {
        await this.repository.insert(config);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`Base ${input.baseId} is logged into table ${table.id} already`);
        throw error;
      }
      await this.quota.keepWithin(held, () => this.repository.delete({ id: config.id }));
      try {
        await this.watches.ensure({ accountId, baseId: config.baseId });
      } catch (error) {
        await this.repository.delete({ id: config.id });
        throw error;
      }
      // The daily reconcile makes up for a listener that failed here.
      for (const listener of this.baseListeners) {
        await listener
          .watched(config.baseId)
          .catch((error: unknown) =>
            this.logger.warn({ err: safeError(error), baseId: config.baseId }, 'could not start mirroring a base'),
          );
      }
      return config;
    });
  }

  /**
   * Without a table: a config of the base into that monitoring base with the same scope (it would log the same rows
   * into a second table; other scopes log other rows); with one: a config into that table.
   */
  private async refuseIdentical(accountId: string, input: CreateMonitoringConfigInput): Promise<void> {
    const where = input.monitoringTableId
      ? { accountId, baseId: input.baseId, monitoringTableId: input.monitoringTableId }
      : { accountId, baseId: input.baseId, monitoringBaseId: input.monitoringBaseId, scope: input.scope ?? 'all' };
    const existing = await this.repository.findOne({ where, order: { createdAt: 'ASC', id: 'ASC' } });
    if (!existing) return;
    throw conflict(
      `Base ${input.baseId} is logged into table ${existing.monitoringTableId} of base ${existing.monitoringBaseId} already, by monitoring config ${existing.id}`,
    );
  }

  private newConfig(
    accountId: string,
    input: CreateMonitoringConfigInput,
    monitored: { id: string; name: string },
    monitoring: { id: string; name: string },
    table: { id: string; name: string },
  ): MonitoringConfig {
    const now = new Date();
    return Object.assign(new MonitoringConfig(), {
      id: randomUUID(),
      accountId,
      baseId: monitored.id,
      baseName: monitored.name,
      workspaceId: input.workspaceId ?? '',
      monitoringBaseId: monitoring.id,
      monitoringBaseName: monitoring.name,
      monitoringTableId: table.id,
      monitoringTableName: table.name,
      scope: input.scope ?? 'all',
      timezone: input.timezone ?? 'UTC',
      changesVersion: 0,
      // Both bases and the table were just found upstream.
      status: 'ok',
      lastError: null,
      statusCheckedAt: now,
      logGapAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  async update(accountId: string, id: string, input: UpdateMonitoringConfigInput): Promise<MonitoringConfig> {
    const config = await this.get(accountId, id);
    const changes = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
    if (!Object.entries(changes).some(([key, value]) => config[key as keyof MonitoringConfig] !== value)) return config;
    Object.assign(config, changes, { updatedAt: new Date() });
    await this.repository.update({ id }, { scope: config.scope, timezone: config.timezone, updatedAt: config.updatedAt });
    return config;
  }

  /** The config's entries go with it; the upstream webhook goes when nothing else needs the base. */
  async remove(accountId: string, id: string): Promise<void> {
    // A config of a base the connection no longer sees can still be removed (its row is the account's own).
    const config = await this.owned(accountId, id);
    await this.dataSource.transaction(async (manager) => {
      await manager.delete(ChangeOutbox, { configId: id });
      await manager.delete(MonitoringConfig, { id });
    });
    await this.watches.release({ accountId, baseId: config.baseId });
    for (const listener of this.baseListeners) await listener.released(config.baseId);
  }

  async needs(manager: EntityManager, base: WatchedBase): Promise<boolean> {
    return manager.existsBy(MonitoringConfig, { baseId: base.baseId });
  }

  accounts(manager: EntityManager, baseId: string): Promise<string[]> {
    return monitoringAccountsOf(manager, baseId);
  }

  all(manager: EntityManager): Promise<WatchedBase[]> {
    return monitoredBases(manager);
  }

  private async changesTable(upstream: UpstreamClient, baseId: string, tableId: string | undefined): Promise<{ id: string; name: string }> {
    const tables = await upstream.getBaseSchema(baseId);
    if (tableId) {
      const table = tables.find((t) => t.id === tableId);
      if (!table) throw invalidRequest(`Base ${baseId} has no table ${tableId}`);
      await this.addMissingColumns(upstream, baseId, table);
      return table;
    }
    const taken = new Set(tables.map((t) => t.name.toLowerCase()));
    let name = DEFAULT_CHANGES_TABLE_NAME;
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${DEFAULT_CHANGES_TABLE_NAME} ${n}`;
    const created = await upstream.createTable(baseId, {
      name,
      description: 'Audit log written by basewatch',
      fields: CHANGES_TABLE_FIELDS,
    });
    this.logger.info({ baseId, tableId: created.id }, 'changes table created');
    return created;
  }

  /** A table the caller chose gets the columns it lacks; columns are matched by name. */
  private async addMissingColumns(upstream: UpstreamClient, baseId: string, table: UpstreamTable): Promise<void> {
    const existing = new Set(table.fields.map((f) => f.name.toLowerCase()));
    for (const field of CHANGES_TABLE_FIELDS) {
      if (!existing.has(field.name.toLowerCase())) await upstream.createField(baseId, table.id, field);
    }
  }
}
