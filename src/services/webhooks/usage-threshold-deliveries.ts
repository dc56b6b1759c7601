import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Webhook, WebhookDelivery, type UsageAlert, type UsageMetric } from '../../entities/index.js';
import { insertDeliveries } from './delivery-row.js';
import { USAGE_THRESHOLD_EVENT } from './webhook-rules.js';

/** The JSON POSTed for a usage alert (CONTRACT §10). */
export interface UsageThresholdEventBody {
  type: typeof USAGE_THRESHOLD_EVENT;
  id: string;
  /** When the alert was recorded. */
  timestamp: string;
  data: {
    webhookId: string;
    baseId: string;
    usageBaseId: string;
    metric: UsageMetric;
    threshold: number;
    value: number;
    limit: number;
    percent: number;
    date: string;
  };
}

/** Deliveries of one webhook go out in order on this one line. */
const ALERT_LINE = 'usage';

/**
 * One delivery per new alert and active usage_threshold webhook of the alert's account and base, inside the
 * transaction that records the alerts: they commit (or roll back) together, and the dispatcher signs, sends and
 * retries them like every delivery.
 */
export async function enqueueUsageThresholdDeliveries(
  manager: EntityManager,
  alerts: UsageAlert[],
  percentOf: (alert: UsageAlert) => number,
): Promise<number> {
  if (!alerts.length) return 0;
  const { accountId, baseId } = alerts[0]!;
  const webhooks = await manager.findBy(Webhook, { accountId, baseId, event: USAGE_THRESHOLD_EVENT, active: true });
  const rows: WebhookDelivery[] = [];
  for (const alert of alerts) {
    for (const webhook of webhooks) {
      const id = randomUUID();
      const body: UsageThresholdEventBody = {
        type: USAGE_THRESHOLD_EVENT,
        id,
        timestamp: alert.createdAt.toISOString(),
        data: {
          webhookId: webhook.id,
          baseId: alert.baseId,
          usageBaseId: alert.usageBaseId,
          metric: alert.metric,
          threshold: alert.threshold,
          value: alert.value,
          limit: alert.limit,
          percent: percentOf(alert),
          date: alert.date,
        },
      };
      rows.push(
        Object.assign(new WebhookDelivery(), {
          id,
          webhookId: webhook.id,
          recordKey: ALERT_LINE,
          eventType: USAGE_THRESHOLD_EVENT,
          body: JSON.stringify(body),
          changeCount: 1,
          status: 'pending',
          attempts: 0,
          retryStep: 0,
          nextAttemptAt: alert.createdAt,
          coalesceUntil: null,
          leaseToken: null,
          leaseUntil: null,
          createdAt: alert.createdAt,
          updatedAt: alert.createdAt,
        }),
      );
    }
  }
  await insertDeliveries(manager, rows);
  return rows.length;
}
