import type { EntityManager } from 'typeorm';
import { MonitoringConfig, Webhook } from '../entities/index.js';

/** An account and an upstream base it watches. */
export interface AccountBase {
  accountId: string;
  baseId: string;
}

/** The accounts with a monitoring config of this base. */
export async function monitoringAccountsOf(manager: EntityManager, baseId: string): Promise<string[]> {
  const rows = await manager
    .createQueryBuilder(MonitoringConfig, 'c')
    .select('DISTINCT c.account_id', 'accountId')
    .where('c.base_id = :baseId', { baseId })
    .getRawMany<{ accountId: string }>();
  return rows.map((r) => r.accountId);
}

/** Each account and base with a monitoring config, once. */
export function monitoredBases(manager: EntityManager): Promise<AccountBase[]> {
  return manager
    .createQueryBuilder(MonitoringConfig, 'c')
    .select(['c.account_id AS "accountId"', 'c.base_id AS "baseId"'])
    .distinct(true)
    .getRawMany<AccountBase>();
}

/** The accounts with an active webhook on this base of any event but `excludedEvent`. */
export async function webhookAccountsOf(manager: EntityManager, baseId: string, excludedEvent: string): Promise<string[]> {
  const rows = await manager
    .createQueryBuilder(Webhook, 'w')
    .select('DISTINCT w.account_id', 'accountId')
    .where('w.base_id = :baseId AND w.active = :active AND w.event <> :excluded', { baseId, active: true, excluded: excludedEvent })
    .getRawMany<{ accountId: string }>();
  return rows.map((r) => r.accountId);
}

/** Each account and base with an active webhook of any event but `excludedEvent`, once. */
export function webhookBases(manager: EntityManager, excludedEvent: string): Promise<AccountBase[]> {
  return manager
    .createQueryBuilder(Webhook, 'w')
    .select('w.account_id', 'accountId')
    .addSelect('w.base_id', 'baseId')
    .where('w.active = :active AND w.event <> :excluded', { active: true, excluded: excludedEvent })
    .groupBy('w.account_id')
    .addGroupBy('w.base_id')
    .getRawMany<AccountBase>();
}
