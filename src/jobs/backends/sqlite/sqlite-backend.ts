import type { AgendaBackend } from 'agenda';
import type { DataSource } from 'typeorm';
import { SqliteJobLogger } from './sqlite-job-logger.js';
import { SqliteJobRepository } from './sqlite-job.repository.js';

export interface SqliteBackendOptions {
  /** The service's own TypeORM DataSource (better-sqlite3 driver), already initialised and migrated. */
  dataSource: DataSource;
  tableName?: string;
  logTableName?: string;
}

/**
 * Agenda storage on the service's SQLite database. It borrows the DataSource and never closes it; there is no
 * notification channel, so Agenda polls every `processEvery`.
 */
export class SqliteBackend implements AgendaBackend {
  readonly name = 'SQLite';
  readonly ownsConnection = false;
  readonly notificationChannel = undefined;
  readonly repository: SqliteJobRepository;
  readonly logger: SqliteJobLogger;

  constructor(options: SqliteBackendOptions) {
    this.repository = new SqliteJobRepository({ dataSource: options.dataSource, tableName: options.tableName });
    this.logger = new SqliteJobLogger({ dataSource: options.dataSource, tableName: options.logTableName });
  }

  /** Only checks that the table exists; safe to call before handing the backend to Agenda, and again. */
  connect(): Promise<void> {
    return this.repository.connect();
  }

  async disconnect(): Promise<void> {}
}
