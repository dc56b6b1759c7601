import type { UsageMetric } from '../../entities/index.js';
import { localDay } from '../calendar.js';
import type { SnapshotService } from '../snapshot.service.js';
import type { UsageBaseService } from '../usage-base.service.js';
import type { UsageLimitsService } from '../usage-limits/usage-limits.service.js';
import { dayNumber, dayOfNumber } from './day-arithmetic.js';
import { forecastMetric, type Forecast } from './forecast.js';

/** The days a forecast reads: the last 30 up to today, so a base no longer counted has no recent pace to tell. */
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
    const today = localDay(this.now(), base.timezone);
    const from = dayOfNumber(dayNumber(today) - (HISTORY_DAYS - 1));
    const [limits, days] = await Promise.all([
      this.limits.of(base.id),
      this.snapshots.range(base, { from, to: today, limit: HISTORY_DAYS, order: 'newest' }),
    ]);
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
