import type { UsageAlert, UsageBase } from '../entities/index.js';
import { percentOf } from '../services/usage-insight/usage-alert.service.js';
import type { SnapshotDay } from '../services/snapshot.service.js';

export const toUsageBaseResponse = (base: UsageBase) => ({
  id: base.id,
  baseId: base.baseId,
  baseName: base.baseName,
  scheduledHour: base.scheduledHour,
  timezone: base.timezone,
  createdAt: base.createdAt.toISOString(),
  updatedAt: base.updatedAt.toISOString(),
});

/** Writes a Snapshot day as JSON by hand: the per-table array is spliced in already serialised. */
export function snapshotDayJson(day: SnapshotDay): string {
  const t = day.totals;
  return (
    `{"date":"${day.date}","tables":${day.tablesJson},"totals":{"recordCount":${t.recordCount},` +
    `"storageBytes":${t.storageBytes},"fileCount":${t.fileCount},"tableCount":${t.tableCount}}}`
  );
}

export const toUsageAlertResponse = (alert: UsageAlert) => ({
  id: alert.id,
  usageBaseId: alert.usageBaseId,
  baseId: alert.baseId,
  metric: alert.metric,
  threshold: alert.threshold,
  value: alert.value,
  limit: alert.limit,
  percent: percentOf(alert.value, alert.limit),
  date: alert.date,
  createdAt: alert.createdAt.toISOString(),
});
