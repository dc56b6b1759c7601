import type { DataSource, Repository } from 'typeorm';
import { UsageBaseLimits } from '../../entities/index.js';
import type { UsageBaseService } from '../usage-base.service.js';
import { PLANS, type PlanName } from './plans.js';
import type { UsageLimitsUpdate } from './usage-limits.input.js';

export const DEFAULT_THRESHOLDS = [80, 95, 100];

/** GET/PUT /usage/bases/{id}/limits (CONTRACT §10). */
export interface UsageLimits {
  plan: PlanName | 'custom' | null;
  recordLimit: number | null;
  storageLimitBytes: number | null;
  /** Percents of each limit, ascending. */
  thresholds: number[];
}

/** Each tracked base's limits: a named plan's (plans.ts) or numbers of its own, and the thresholds alerts use. */
export class UsageLimitsService {
  private readonly repository: Repository<UsageBaseLimits>;

  constructor(
    dataSource: DataSource,
    private readonly usageBases: UsageBaseService,
  ) {
    this.repository = dataSource.getRepository(UsageBaseLimits);
  }

  /** The caller's base's limits; none set yet: no limits and the default thresholds. */
  async get(accountId: string, usageBaseId: string): Promise<UsageLimits> {
    await this.usageBases.get(accountId, usageBaseId);
    return this.of(usageBaseId);
  }

  /**
   * Changes what is given: a named plan fills both limits from the plan table, numbers of its own make it `custom`,
   * `plan: null` clears both limits.
   */
  async update(accountId: string, usageBaseId: string, input: UsageLimitsUpdate): Promise<UsageLimits> {
    const next = { ...(await this.get(accountId, usageBaseId)) };
    if (input.plan === null) Object.assign(next, { plan: null, recordLimit: null, storageLimitBytes: null });
    else if (input.plan === 'custom') next.plan = 'custom';
    else if (input.plan !== undefined) Object.assign(next, { plan: input.plan, ...PLANS[input.plan] });
    if (input.recordLimit !== undefined) Object.assign(next, { plan: 'custom', recordLimit: input.recordLimit });
    if (input.storageLimitBytes !== undefined) Object.assign(next, { plan: 'custom', storageLimitBytes: input.storageLimitBytes });
    // Custom without a number is no limit at all.
    if (next.plan === 'custom' && next.recordLimit === null && next.storageLimitBytes === null) next.plan = null;
    if (input.thresholds) next.thresholds = [...input.thresholds].sort((a, b) => a - b);
    await this.repository.save({
      usageBaseId,
      plan: next.plan,
      recordLimit: next.recordLimit,
      storageLimitBytes: next.storageLimitBytes,
      thresholds: JSON.stringify(next.thresholds),
      updatedAt: new Date(),
    });
    return next;
  }

  /** The limits of a base the caller has already loaded (and access-checked). */
  async of(usageBaseId: string): Promise<UsageLimits> {
    const row = await this.repository.findOneBy({ usageBaseId });
    if (!row) return { plan: null, recordLimit: null, storageLimitBytes: null, thresholds: [...DEFAULT_THRESHOLDS] };
    return {
      plan: row.plan as UsageLimits['plan'],
      recordLimit: row.recordLimit,
      storageLimitBytes: row.storageLimitBytes,
      thresholds: JSON.parse(row.thresholds) as number[],
    };
  }
}
