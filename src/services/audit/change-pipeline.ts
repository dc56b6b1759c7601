import type { EntityManager } from 'typeorm';
import type { ChangeEvent, WatchedBase } from './change-event.js';

/**
 * A consumer of ingested changes besides the audit log (webhook forwarding). `accept` runs INSIDE the ingestion
 * transaction, so its rows commit or roll back with the entries and the cursor; throwing aborts the batch.
 * `committed` runs after the commit, e.g. to wake a job.
 */
export interface ChangeSink {
  accept(manager: EntityManager, base: WatchedBase, changes: ChangeEvent[]): Promise<void>;
  committed?(base: WatchedBase): void;
}

/**
 * A reason to watch a base: the upstream webhook of (account, base) exists while any demand says yes.
 * Monitoring configs are one demand, forwarding webhooks another.
 */
export interface WatchDemand {
  needs(manager: EntityManager, base: WatchedBase): Promise<boolean>;
  /** Every (account, base) this demand needs now (start-up reconcile). */
  all(manager: EntityManager): Promise<WatchedBase[]>;
}
