import type { EntityManager } from 'typeorm';
import { MonitoringConfig } from '../entities/index.js';

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
