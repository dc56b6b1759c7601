import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../ormconfig.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { underStartupLock } from './startup-lock.js';

export interface OpenDatabaseOptions {
  /** Told when the process waits for another one's set-up. */
  logger?: Logger;
  /** More set-up on the migrated database, under the same start-up lock (a failure closes the database). */
  setUp?: (dataSource: DataSource) => Promise<void>;
}

/** Opens the service's database and applies pending migrations: on PostgreSQL one process at a time. */
export async function openDatabase(database: Config['database'], options: OpenDatabaseOptions = {}): Promise<DataSource> {
  if (database.type === 'sqlite' && database.path !== ':memory:') {
    mkdirSync(dirname(database.path), { recursive: true });
  }
  return underStartupLock(database, options.logger, async () => {
    const dataSource = new DataSource(dataSourceOptions(database));
    await dataSource.initialize();
    try {
      if (database.type === 'sqlite') {
        await dataSource.query('PRAGMA synchronous = NORMAL');
      }
      await dataSource.runMigrations({ transaction: 'each' });
      await options.setUp?.(dataSource);
      return dataSource;
    } catch (error) {
      await dataSource.destroy().catch(() => undefined);
      throw error;
    }
  });
}
