import { DateTime } from 'luxon';
import type { TestApp } from '../../support/test-app.js';

/** Selections of every REST field, so GraphQL answers can be compared with REST bodies. */
export const USAGE_BASE_FIELDS = 'id restId baseId baseName scheduledHour timezone createdAt updatedAt';
export const SNAPSHOT_DAY_FIELDS =
  'id date tables { tableId tableName recordCount storageBytes fileCount } totals { recordCount storageBytes fileCount tableCount }';

interface UsageBaseNode {
  restId: string;
  baseId: string;
  baseName: string;
  scheduledHour: number;
  timezone: string;
  createdAt: string;
  updatedAt: string;
}

/** A GraphQL UsageBase in the REST `Usage base` shape (the REST id is `restId` in GraphQL). */
export const asRestUsageBase = ({ restId, baseId, baseName, scheduledHour, timezone, createdAt, updatedAt }: UsageBaseNode) => ({
  id: restId,
  baseId,
  baseName,
  scheduledHour,
  timezone,
  createdAt,
  updatedAt,
});

/** A GraphQL SnapshotDay in the REST `Snapshot day` shape. */
export const asRestDay = ({ date, tables, totals }: { date: string; tables: unknown[]; totals: unknown }) => ({ date, tables, totals });

/** `count` days newest first, ending at `newest`, every `step` days (gaps are days without a count). */
export function pastDays(count: number, newest = '2026-11-20', step = 1): string[] {
  return Array.from({ length: count }, (_, i) => DateTime.fromISO(newest).minus({ days: i * step }).toISODate() as string);
}

/** Stores counted days through the snapshot service, as counts would; storage beyond 2^31 on purpose. */
export async function recordDays(app: TestApp, usageBaseId: string, dates: string[]): Promise<void> {
  for (const [i, date] of dates.entries()) {
    const tables = [
      { tableId: 'tblAAAAAAAAAAAAAA', tableName: 'A', recordCount: i + 1, storageBytes: (i + 1) * 3_000_000_000, fileCount: i * 2 },
      { tableId: 'tblBBBBBBBBBBBBBB', tableName: 'B', recordCount: 7, storageBytes: 0, fileCount: 0 },
    ];
    await app.running.services.snapshots.record(usageBaseId, date, tables, new Date());
  }
}

export const MONITORING_CONFIG_FIELDS =
  'id restId baseId baseName workspaceId monitoringBaseId monitoringBaseName monitoringTableId monitoringTableName scope timezone createdAt updatedAt';
export const CHANGE_FIELDS =
  'id restId monitoringRecordId occurredAt eventType kind tableId tableName recordId fieldIds source userEmail userName before after';
export const WEBHOOK_FIELDS = 'id restId baseId event tableId columnId webhookUrl coalesceUpdates createdAt updatedAt';
export const DELIVERY_FIELDS =
  'restId status eventType changeCount nextAttemptAt createdAt updatedAt payload attempts { attemptedAt statusCode durationMs error }';

/** A GraphQL node in its REST shape: the REST id (`restId`) under the REST name, the global id dropped. */
export function asRest<T extends { id?: string; restId: string }>({ id: _global, restId, ...fields }: T, idName = 'id') {
  return { [idName]: restId, ...fields };
}
