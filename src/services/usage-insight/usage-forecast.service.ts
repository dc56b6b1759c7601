import type { UsageMetric } from '../../entities/index.js';
import { localDay } from '../calendar.js';
import type { SnapshotService } from '../snapshot.service.js';
import type { UsageBaseService } from '../usage-base.service.js';
import type { UsageLimitsService } from '../usage-limits/usage-limits.service.js';
import { forecastMetric, type Forecast } from './forecast.js';

/** The days a forecast reads: the 30 ending at the newest count (forecast.ts). */
const HISTORY_DAYS = 30;

export interface UsageForecast {
  baseId: string;
  forecasts: Array<Forecast & { metric: UsageMetric }>;
}

/** GET /usage/bases/{id}/forecast (CONTRACT §10): each limit's "days until full" from the snapshot history. */
export class UsageForecastService {
  constructor(
    private readonly usageBases: UsageBaseService,
    private readonly snapshots: SnapshotService,
    private readonly limits: UsageLimitsService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(accountId: string, usageBaseId: string): Promise<UsageForecast> {
    const base = await this.usageBases.get(accountId, usageBaseId);
    const [limits, days] = await Promise.all([
      this.limits.get(accountId, usageBaseId),
      this.snapshots.range(base, { limit: HISTORY_DAYS, order: 'newest' }),
    ]);
    const today = localDay(this.now(), base.timezone);
    const of = (metric: UsageMetric, limit: number | null, value: (totals: (typeof days)[number]['totals']) => number) => ({
      metric,
      ...forecastMetric({ points: days.map((day) => ({ date: day.date, value: value(day.totals) })), limit, today }),
    });
    return {
      baseId: base.baseId,
      forecasts: [
        of('records', limits.recordLimit, (totals) => totals.recordCount),
        of('storage', limits.storageLimitBytes, (totals) => totals.storageBytes),
      ],
    };
  }
}
