import type { UsageBase } from '../entities/index.js';
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
