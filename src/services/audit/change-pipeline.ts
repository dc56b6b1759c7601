import type { EntityManager } from 'typeorm';
import type { ChangeEvent, IngestedBase, WatchedBase } from './change-event.js';

/**
 * A consumer of ingested changes besides the audit log (webhook forwarding). `accept` runs INSIDE the ingestion
 * transaction, so its rows commit or roll back with the entries and the cursor; throwing aborts the batch.
 * `committed` runs after the commit, e.g. to wake a job.
 */
export interface ChangeSink {
  /** Also given the service's own writes (rows of Changes tables), which the log and forwarding leave out. */
  includesOwnRows?: boolean;
  accept(manager: EntityManager, base: IngestedBase, changes: ChangeEvent[]): Promise<void>;
  committed?(base: WatchedBase): void;
}

/**
 * A reason to watch a base: the base's upstream webhook exists while any demand of any account says yes.
 * Monitoring configs are one demand, forwarding webhooks another.
 */
export interface WatchDemand {
  /** Whether any account needs the base (`base.accountId` is only who asks). */
  needs(manager: EntityManager, base: WatchedBase): Promise<boolean>;
  /** Every (account, base) this demand needs now (start-up reconcile). */
  all(manager: EntityManager): Promise<WatchedBase[]>;
  /** The accounts that need the base (who gets its changes, and whom a watch may move to). */
  accounts(manager: EntityManager, baseId: string): Promise<string[]>;
}
