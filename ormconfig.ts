import type { DataSourceOptions } from 'typeorm';
import type { Config } from './src/config.js';
import { entities } from './src/entities/index.js';
import { migrations } from './src/migrations/index.js';

/** The TypeORM DataSource options for a configuration. Migrations run at start-up; `synchronize` is never used. */
export function dataSourceOptions(database: Config['database']): DataSourceOptions {
  const common = { entities, migrations, synchronize: false, migrationsRun: false, logging: false } as const;
  if (database.type === 'postgres') {
    return { ...common, type: 'postgres', url: database.url };
  }
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.path,
    // WAL lets readers proceed while a count commits; the busy timeout lets a second process wait for the lock.
    enableWAL: true,
    timeout: 5_000,
  };
}
