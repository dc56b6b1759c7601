import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';
import { KeyedMutex } from './services/keyed-mutex.js';

/**
 * TypeORM runs every query of a better-sqlite3 DataSource on one connection, and lets a second `transaction()` start
 * while the first awaits: its BEGIN fails ("cannot start a transaction within a transaction") and its rollback ends
 * the first one's transaction, whose writes are lost. Transactions of the DataSource's manager are therefore run one
 * at a time in this process; one opened inside another's callback (through the DataSource rather than the callback's
 * manager) nests as before, as a savepoint. PostgreSQL gives each transaction a connection of its own.
 */
export function serialiseSqliteTransactions(dataSource: DataSource): void {
  const manager = dataSource.manager;
  const transaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  const inside = new AsyncLocalStorage<true>();
  const oneAtATime = new KeyedMutex();
  const serialised = (...args: unknown[]): Promise<unknown> =>
    inside.getStore() ? transaction(...args) : oneAtATime.run('transaction', () => inside.run(true, () => transaction(...args)));
  (manager as { transaction: EntityManager['transaction'] }).transaction = serialised as EntityManager['transaction'];
}
