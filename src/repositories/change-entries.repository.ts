import type { DataSource, EntityManager } from 'typeorm';

/** The oldest `limit` change entries that occurred before `cutoff` (ISO text), with their config. */
export function changeEntriesBefore(dataSource: DataSource, cutoff: string, limit: number): Promise<Array<{ id: number; configId: string }>> {
  return dataSource
    .createQueryBuilder()
    .select('e.id', 'id')
    .addSelect('e.config_id', 'configId')
    .from('change_entry', 'e')
    .where('e.occurred_at < :cutoff', { cutoff })
    .orderBy('e.occurred_at')
    .limit(limit)
    .getRawMany<{ id: number; configId: string }>();
}

/** Deletes the entries and what hangs off them (their fields, their outbox rows). */
export async function deleteChangeEntries(manager: EntityManager, ids: number[]): Promise<void> {
  await manager.createQueryBuilder().delete().from('change_entry_field').where('entry_id IN (:...ids)', { ids }).execute();
  await manager.createQueryBuilder().delete().from('change_outbox').where('entry_id IN (:...ids)', { ids }).execute();
  await manager.createQueryBuilder().delete().from('change_entry').where('id IN (:...ids)', { ids }).execute();
}
