import type { DataSource } from 'typeorm';

/** One round trip to the database; throws when it does not answer. */
export async function pingDatabase(dataSource: DataSource): Promise<void> {
  await dataSource.query('SELECT 1');
}
