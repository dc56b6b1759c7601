import { DateTime } from 'luxon';
import { CHANGE_EVENT_TYPES, CHANGE_KINDS, CHANGE_SOURCES, MONITORING_SCOPES } from '../../../src/services/audit/change-event.js';
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
  return Array.from(
    { length: count },
    (_, i) =>
      DateTime.fromISO(newest)
        .minus({ days: i * step })
        .toISODate() as string,
  );
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

/** GraphQL's spelling of a REST enum value: `record_update` → `RECORD_UPDATE`, `formPageSubmission` → `FORM_PAGE_SUBMISSION`. */
export const graphqlEnum = (restValue: string) => restValue.replace(/[A-Z]/g, '_$&').toUpperCase();

const REST_ENUM_VALUES = [
  ...CHANGE_EVENT_TYPES,
  ...CHANGE_KINDS,
  ...CHANGE_SOURCES,
  ...MONITORING_SCOPES,
  'pending',
  'succeeded',
  'failed',
];
const REST_SPELLING = new Map(REST_ENUM_VALUES.map((value) => [graphqlEnum(value), value]));
const ENUM_FIELDS = new Set(['eventType', 'kind', 'source', 'scope', 'event', 'status']);

/** An enum field's GraphQL value in REST's spelling; a value not spelled the GraphQL way comes back marked, so it compares unequal. */
const restSpelling = (value: unknown) =>
  typeof value === 'string' ? (REST_SPELLING.get(value) ?? `not a GraphQL enum value: ${value}`) : value;

/**
 * A GraphQL node in its REST shape: the REST id (`restId`) under the REST name, the global id dropped, enum values
 * (GraphQL's RECORD_UPDATE) in REST's spelling (`record_update`).
 */
export function asRest<T extends { id?: string; restId: string }>({ id: _global, restId, ...fields }: T, idName = 'id') {
  const restFields = Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, ENUM_FIELDS.has(key) ? restSpelling(value) : value]),
  );
  return { [idName]: restId, ...restFields };
}
