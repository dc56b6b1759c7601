import type { EntityManager } from 'typeorm';
import { MonitoringConfig } from '../../entities/index.js';

/**
 * Marks the change logs of these configs as changed (monitoring_config.changes_version), inside the transaction that
 * writes their entries: a page rendered under the old version is then never served again (changes.routes.ts).
 */
export async function bumpChangeVersions(manager: EntityManager, configIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(configIds)];
  if (!ids.length) return;
  await manager
    .createQueryBuilder()
    .update(MonitoringConfig)
    .set({ changesVersion: () => 'changes_version + 1' })
    .where('id IN (:...ids)', { ids })
    .execute();
}

/** The same for the configs that own these change entries, before the entries are updated or deleted. */
export async function bumpChangeVersionsOfEntries(manager: EntityManager, entryIds: number[]): Promise<void> {
  if (!entryIds.length) return;
  const owners = await manager
    .createQueryBuilder()
    .select('DISTINCT e.config_id', 'configId')
    .from('change_entry', 'e')
    .where('e.id IN (:...entryIds)', { entryIds })
    .getRawMany<{ configId: string }>();
  await bumpChangeVersions(manager, owners.map((o) => o.configId));
}
