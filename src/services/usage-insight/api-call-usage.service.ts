import { invalidRequest } from '../../errors.js';
import type { UpstreamAccess } from '../connections/upstream-access.js';
import { monthOf, sumCalls, type ApiCallLedgerService, type MonthCalls } from './api-call-ledger.service.js';

/** `GET /usage/api-calls` (CONTRACT §10). */
export interface ApiCallUsage extends MonthCalls {
  month: string;
  /** Calls by the month's end at this month's pace so far; a past month's total. */
  projected: number;
}

const DAY_MS = 86_400_000;

/**
 * An account's upstream requests in a month: those of its upstream user (its connection's, or the deployment's
 * shared token's when it has none), whichever account or job made them, because the platform counts per user.
 */
export class ApiCallUsageService {
  private readonly now: () => Date;

  constructor(
    private readonly ledger: ApiCallLedgerService,
    private readonly access: UpstreamAccess,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  /** `month` is YYYY-MM (checked by apiCallInput); default this UTC month; a month to come is invalid_request. */
  async month(accountId: string, month?: string): Promise<ApiCallUsage> {
    const now = this.now();
    const current = monthOf(now);
    const asked = month ?? current;
    if (asked > current) throw invalidRequest(`month ${asked} has not begun (this month is ${current}, UTC)`);
    const userKey = await this.access.userKeyFor(accountId);
    // No connection and no shared token: nothing was ever sent for the account.
    const calls = userKey ? await this.ledger.month(userKey, asked) : sumCalls([]);
    return { month: asked, ...calls, projected: asked === current ? projectToMonthEnd(calls.total, now) : calls.total };
  }
}

/**
 * Linear: the month's calls so far times the month's length over the time elapsed. Elapsed counts as at least one
 * day, so that a few calls in the first hours of a month do not project to thousands.
 */
export function projectToMonthEnd(total: number, now: Date): number {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const length = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - start;
  const elapsed = Math.max(now.getTime() - start, DAY_MS);
  return Math.round((total * length) / elapsed);
}
