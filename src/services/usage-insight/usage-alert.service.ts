import { randomUUID } from 'node:crypto';
import { LessThan, type DataSource, type EntityManager } from 'typeorm';
import { UsageAlert, UsageBase, UsageBaseLimits, type UsageMetric } from '../../entities/index.js';
import { notFound } from '../../errors.js';
import type { SignedCursorCodec } from '../signed-cursor.js';
import { isServiceId } from '../service-id.js';
import type { RecordedDay, SnapshotSink } from '../snapshot.service.js';
import { enqueueUsageThresholdDeliveries } from '../webhooks/usage-threshold-deliveries.js';
import type { UsageAlertQuery } from './usage-alert.input.js';

type Exceeded = Partial<Record<UsageMetric, number[]>>;

/** Only the alerts of one upstream base, or of one tracked base (already access-checked by the caller). */
export interface AlertFilter {
  baseId?: string;
  usageBaseId?: string;
}

const whereOf = ({ baseId, usageBaseId }: AlertFilter) => ({ ...(baseId ? { baseId } : {}), ...(usageBaseId ? { usageBaseId } : {}) });

export interface UsageAlertPage {
  alerts: UsageAlert[];
  nextCursor?: string;
}

/** value ÷ limit in percent, to one decimal. */
export const percentOf = (value: number, limit: number): number => Math.round((value / limit) * 1_000) / 10;

/**
 * Threshold alerts (CONTRACT §10). Each recorded day is read against the base's limits inside the snapshot's
 * transaction: a threshold the count reaches that the previous count did not is an alert, recorded once and
 * queued to the account's usage_threshold webhooks of the base; one the count fell below is armed again. The
 * thresholds exceeded are kept with the limits, so a recount of the same day, or a day spent above, adds nothing.
 */
export class UsageAlertService implements SnapshotSink {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cursors: SignedCursorCodec<number>,
    private readonly wake: () => void,
  ) {}

  async accept(manager: EntityManager, day: RecordedDay): Promise<void> {
    const limits = await manager.findOneBy(UsageBaseLimits, { usageBaseId: day.usageBaseId });
    if (!limits) return;
    const thresholds = JSON.parse(limits.thresholds) as number[];
    const before = JSON.parse(limits.exceeded) as Exceeded;
    const measured: Array<[UsageMetric, number, number | null]> = [
      ['records', day.totals.recordCount, limits.recordLimit],
      ['storage', day.totals.storageBytes, limits.storageLimitBytes],
    ];
    const after: Exceeded = {};
    const crossed: Array<{ metric: UsageMetric; threshold: number; value: number; limit: number }> = [];
    for (const [metric, value, limit] of measured) {
      const reached = limit === null ? [] : thresholds.filter((threshold) => value * 100 >= limit * threshold);
      after[metric] = reached;
      for (const threshold of reached) if (!before[metric]?.includes(threshold)) crossed.push({ metric, threshold, value, limit: limit! });
    }
    if (JSON.stringify(after) !== JSON.stringify(before))
      await manager.update(UsageBaseLimits, { usageBaseId: day.usageBaseId }, { exceeded: JSON.stringify(after) });
    if (!crossed.length) return;
    const base = await manager.findOneOrFail(UsageBase, {
      select: { id: true, accountId: true, baseId: true },
      where: { id: day.usageBaseId },
    });
    const alerts = crossed.map((crossing) =>
      Object.assign(new UsageAlert(), {
        id: randomUUID(),
        accountId: base.accountId,
        usageBaseId: base.id,
        baseId: base.baseId,
        ...crossing,
        date: day.date,
        createdAt: day.countedAt,
      }),
    );
    await manager.insert(UsageAlert, alerts);
    await enqueueUsageThresholdDeliveries(manager, alerts, (alert) => percentOf(alert.value, alert.limit));
  }

  committed(): void {
    this.wake();
  }

  /** The cursor of the list just past this alert (each alert's own, for GraphQL edges). */
  cursorAfter(accountId: string, alert: UsageAlert): string {
    return this.cursors.encode(accountId, alert.seq);
  }

  /** How many alerts the account has (of one upstream base, or of one tracked base). */
  countOf(accountId: string, filter: AlertFilter = {}): Promise<number> {
    return this.dataSource.getRepository(UsageAlert).countBy({ accountId, ...whereOf(filter) });
  }

  /** One of the account's alerts, or 404. */
  async get(accountId: string, id: string): Promise<UsageAlert> {
    const alert = isServiceId(id) ? await this.dataSource.getRepository(UsageAlert).findOneBy({ id, accountId }) : null;
    if (!alert) throw notFound('Usage alert');
    return alert;
  }

  /** The account's alerts, newest first; only those of one upstream base when `baseId` is given. */
  async list(accountId: string, query: UsageAlertQuery & AlertFilter): Promise<UsageAlertPage> {
    const before = query.cursor === undefined ? undefined : this.cursors.decode(accountId, query.cursor);
    const rows = await this.dataSource.getRepository(UsageAlert).find({
      where: { accountId, ...whereOf(query), ...(before === undefined ? {} : { seq: LessThan(before) }) },
      order: { seq: 'DESC' },
      take: query.limit + 1,
    });
    const alerts = rows.slice(0, query.limit);
    const last = alerts[alerts.length - 1];
    return rows.length > query.limit && last ? { alerts, nextCursor: this.cursors.encode(accountId, last.seq) } : { alerts };
  }
}
