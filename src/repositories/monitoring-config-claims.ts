import type { DataSource, Repository } from 'typeorm';
import { MonitoringConfigClaim } from '../entities/index.js';
import { isUniqueViolation } from './db-errors.js';

/** Longer than any create takes (a schema read, a table or a few columns made, each with the client's retries). */
const CLAIM_LIFETIME_MS = 10 * 60_000;

export type ClaimKey = Pick<MonitoringConfigClaim, 'accountId' | 'baseId' | 'monitoringBaseId'>;

/**
 * One create at a time of an account's config of a base into a monitoring base, across requests and processes: the
 * claim's row is inserted before anything is made upstream, and its primary key refuses a second one.
 */
export class MonitoringConfigClaims {
  private readonly repository: Repository<MonitoringConfigClaim>;

  constructor(dataSource: DataSource) {
    this.repository = dataSource.getRepository(MonitoringConfigClaim);
  }

  /** Runs `work` under the claim, or answers `busy()` without running it while another create holds the claim. */
  async run<T>(key: ClaimKey, busy: () => Error, work: () => Promise<T>): Promise<T> {
    if (!(await this.take(key))) throw busy();
    try {
      return await work();
    } finally {
      await this.repository.delete(key);
    }
  }

  private async take(key: ClaimKey): Promise<boolean> {
    const now = new Date();
    // A claim whose process died before releasing it.
    await this.repository
      .createQueryBuilder()
      .delete()
      .where('account_id = :accountId AND base_id = :baseId AND monitoring_base_id = :monitoringBaseId AND claimed_until < :now', {
        ...key,
        now: now.toISOString(),
      })
      .execute();
    try {
      await this.repository.insert({ ...key, claimedUntil: new Date(now.getTime() + CLAIM_LIFETIME_MS) });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}
