import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, EntityManager } from 'typeorm';

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
  let tail: Promise<unknown> = Promise.resolve();
  const serialised = (...args: unknown[]): Promise<unknown> => {
    if (inside.getStore()) return transaction(...args);
    const run = () => inside.run(true, () => transaction(...args));
    const result = tail.then(run, run);
    tail = result.catch(() => undefined);
    return result;
  };
  (manager as { transaction: EntityManager['transaction'] }).transaction = serialised as EntityManager['transaction'];
}
