import type { EntityManager } from 'typeorm';
import { MonitoringConfig } from '../entities/index.js';

/** The Changes tables that configs write into in this base. */
export async function changesTablesIn(manager: EntityManager, baseId: string): Promise<Set<string>> {
  const rows = await manager
    .createQueryBuilder(MonitoringConfig, 'c')
    .select('DISTINCT c.monitoring_table_id', 'tableId')
    .where('c.monitoring_base_id = :baseId', { baseId })
    .getRawMany<{ tableId: string }>();
  return new Set(rows.map((row) => row.tableId));
}
