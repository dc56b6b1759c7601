import type { DataSource } from 'typeorm';

/** The token of the count lock a base's row holds right now, or null when no count holds it. */
export async function countLockOf(dataSource: DataSource, usageBaseId: string): Promise<string | null> {
  const rows = await dataSource.query('SELECT count_lock_token AS token FROM usage_base WHERE id = ?', [usageBaseId]);
  return rows[0]?.token ?? null;
}
