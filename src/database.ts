import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../ormconfig.js';
import type { Config } from './config.js';

/** Opens the service's database and applies pending migrations. */
export async function openDatabase(database: Config['database']): Promise<DataSource> {
  if (database.type === 'sqlite' && database.path !== ':memory:') {
    mkdirSync(dirname(database.path), { recursive: true });
  }
  const dataSource = new DataSource(dataSourceOptions(database));
  await dataSource.initialize();
  if (database.type === 'sqlite') {
    await dataSource.query('PRAGMA synchronous = NORMAL');
  }
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}
