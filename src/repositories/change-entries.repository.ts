import type { DataSource, EntityManager } from 'typeorm';
import { ChangeEntry } from '../entities/index.js';

/** The oldest `limit` change entries that occurred before `cutoff` (ISO text), with their config. */
export function changeEntriesBefore(
  dataSource: DataSource,
  cutoff: string,
  limit: number,
): Promise<Array<{ id: number; configId: string }>> {
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

/**
 * Inserts the entries of one config in multi-row chunks and sets each one's generated id, read back by (config,
 * position), which is unique: one round trip per chunk on SQLite, where TypeORM cannot use RETURNING.
 */
export async function insertChangeEntries(
  manager: EntityManager,
  configId: string,
  entries: ChangeEntry[],
  chunkSize: number,
): Promise<void> {
  for (let i = 0; i < entries.length; i += chunkSize) {
    const chunk = entries.slice(i, i + chunkSize);
    await manager.createQueryBuilder().insert().into(ChangeEntry).values(chunk).updateEntity(false).execute();
    const ids = await manager
      .createQueryBuilder(ChangeEntry, 'e')
      .select(['e.id AS id', 'e.position AS position'])
      .where('e.config_id = :configId AND e.position IN (:...positions)', { configId, positions: chunk.map((e) => e.position) })
      .getRawMany<{ id: number; position: string }>();
    const idOf = new Map(ids.map((row) => [row.position, Number(row.id)]));
    for (const entry of chunk) entry.id = idOf.get(entry.position)!;
  }
}
