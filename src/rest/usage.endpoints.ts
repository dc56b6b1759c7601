import { z } from './zod.js';
import { defineRoute } from './http/route.js';
import { snapshotInput } from '../services/snapshot.input.js';
import { usageBaseInput } from '../services/usage-base.input.js';
import { PLAN_NAMES } from '../services/usage-limits/plans.js';
import { usageLimitsInput } from '../services/usage-limits/usage-limits.input.js';
import { lostIds, ServiceId, Timestamp } from './schemas.js';

const tag = 'Usage';

const UsageBaseBody = z
  .strictObject({
    id: z.string().openapi({ format: 'uuid' }),
    baseId: z.string(),
    baseName: z.string(),
    scheduledHour: z.number().int().min(0).max(23),
    timezone: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('UsageBase');

const TableCountBody = z
  .strictObject({
    tableId: z.string(),
    tableName: z.string(),
    recordCount: z.number().int().min(0),
    storageBytes: z.number().int().min(0).openapi({ description: 'bytes of attachment storage' }),
    fileCount: z.number().int().min(0),
  })
  .openapi('TableCount');

const SnapshotDayBody = z
  .strictObject({
    date: z.string().openapi({ format: 'date' }),
    tables: z.array(TableCountBody),
    totals: z
      .strictObject({
        recordCount: z.number().int().min(0),
        storageBytes: z.number().int().min(0),
        fileCount: z.number().int().min(0),
        tableCount: z.number().int().min(0),
      })
      .openapi('SnapshotTotals'),
  })
  .openapi('SnapshotDay');

const RunResultBody = z
  .strictObject({
    status: z.literal('success'),
    tablesProcessed: z.number().int().min(0),
    totalRecords: z.number().int().min(0),
    totalAttachmentBytes: z.number().int().min(0),
    totalFileCount: z.number().int().min(0),
    snapshotDate: z.string().openapi({ format: 'date' }),
  })
  .openapi('RunResult');

const IdParams = z.object({ id: ServiceId });

const LimitsResponse = z.strictObject({
  limits: z.strictObject({
    plan: z.enum([...PLAN_NAMES, 'custom']).nullable(),
    recordLimit: z.number().int().nullable(),
    storageLimitBytes: z.number().int().nullable(),
    thresholds: z.array(z.number().int()),
  }),
});

const ScheduleBody = z
  .strictObject({
    nextRunAt: Timestamp.nullable().openapi({ description: 'when the next daily count starts; null when none is planned' }),
    lastRun: z
      .strictObject({
        startedAt: Timestamp,
        finishedAt: Timestamp.nullable(),
        status: z.enum(['ok', 'failed', 'running']),
        error: z.string().optional(),
      })
      .nullable()
      .openapi({ description: 'the latest scheduled count; null before the first' }),
  })
  .openapi('UsageSchedule');

export const usageRoutes = {
  list: defineRoute({
    method: 'get',
    path: '/usage/bases',
    operationId: 'listUsageBases',
    summary: 'List tracked bases',
    tag,
    success: {
      status: 200,
      description: 'The caller’s tracked bases',
      schema: z.strictObject({ bases: z.array(UsageBaseBody), lost: lostIds('tracked bases') }),
    },
    errors: [401, 429],
  }),
  create: defineRoute({
    method: 'post',
    path: '/usage/bases',
    operationId: 'createUsageBase',
    summary: 'Track a base (extension)',
    description:
      'Starts daily counts of an upstream base. 409 when the base is tracked already, or the account tracks as many bases as its quota allows (`MAX_TRACKED_BASES_PER_ACCOUNT`, default 100); 404 when the account’s upstream connection does not see the base (whether it exists elsewhere or not).',
    tag,
    body: usageBaseInput.create,
    success: { status: 201, description: 'The tracked base', schema: z.strictObject({ base: UsageBaseBody }) },
    errors: [400, 401, 404, 409, 413, 429, 502],
  }),
  update: defineRoute({
    method: 'patch',
    path: '/usage/bases/{id}',
    operationId: 'updateUsageBase',
    summary: 'Update display name, schedule hour, timezone',
    description: 'All fields optional; an empty object changes nothing.',
    tag,
    params: IdParams,
    body: usageBaseInput.update,
    success: { status: 200, description: 'The updated base', schema: z.strictObject({ base: UsageBaseBody }) },
    errors: [400, 401, 404, 413, 429],
  }),
  remove: defineRoute({
    method: 'delete',
    path: '/usage/bases/{id}',
    operationId: 'deleteUsageBase',
    summary: 'Stop tracking a base (extension)',
    description: 'Deletes the tracked base and its snapshots; also one whose upstream base the account’s connection no longer sees.',
    tag,
    params: IdParams,
    success: { status: 204, description: 'Deleted' },
    errors: [401, 404, 429],
  }),
  snapshots: defineRoute({
    method: 'get',
    path: '/usage/bases/{id}/snapshots',
    operationId: 'listSnapshots',
    summary: 'Snapshot history, newest first',
    description:
      '`from` and `to` bound the days (inclusive); `cursor` returns days strictly older than it; `nextCursor` is present only when an older page exists. Days without a count are absent.',
    tag,
    params: IdParams,
    query: snapshotInput.list,
    success: {
      status: 200,
      description: 'A page of days',
      schema: z.strictObject({ baseId: z.string(), days: z.array(SnapshotDayBody), nextCursor: z.string().optional() }),
    },
    errors: [400, 401, 404, 429],
    conditional: true,
  }),
  latest: defineRoute({
    method: 'get',
    path: '/usage/bases/{id}/snapshots/latest',
    operationId: 'getLatestSnapshot',
    summary: 'Most recent snapshot day',
    tag,
    params: IdParams,
    success: {
      status: 200,
      description: 'The newest day, or null before the first count',
      schema: z.strictObject({ baseId: z.string(), day: SnapshotDayBody.nullable() }),
    },
    errors: [401, 404, 429],
    conditional: true,
  }),
  schedule: defineRoute({
    method: 'get',
    path: '/usage/bases/{id}/schedule',
    operationId: 'getUsageSchedule',
    summary: 'Next and last scheduled count (extension)',
    description:
      'The daily count runs at `scheduledHour` in `timezone`: on a spring-forward day an hour in the gap runs at the switch, an hour that occurs twice runs once; bases sharing an hour start spread over its first minutes.',
    tag,
    params: IdParams,
    success: { status: 200, description: 'The schedule', schema: ScheduleBody },
    errors: [401, 404, 429],
  }),
  limits: defineRoute({
    method: 'get',
    path: '/usage/bases/{id}/limits',
    operationId: 'getUsageLimits',
    summary: 'Record and storage limits, and alert thresholds (extension)',
    description:
      'The base’s plan or limits of its own, and the percents of each limit at which an alert is recorded. Until set: no plan, no limits, thresholds 80, 95 and 100.',
    tag,
    params: IdParams,
    success: { status: 200, description: 'The limits', schema: LimitsResponse },
    errors: [401, 404, 429],
  }),
  updateLimits: defineRoute({
    method: 'put',
    path: '/usage/bases/{id}/limits',
    operationId: 'setUsageLimits',
    summary: 'Set a plan or limits of its own, and thresholds (extension)',
    description:
      'Any of the fields: a named plan fills both limits from the plan table (free 1,000 records and 1 GiB, team 50,000 and 20 GiB, business 125,000 and 100 GiB, enterprise_scale 500,000 and 1,000 GiB); `recordLimit` or `storageLimitBytes` makes the plan `custom`; `plan: null` clears both limits. Fields left out keep their value.',
    tag,
    params: IdParams,
    body: usageLimitsInput.update,
    success: { status: 200, description: 'The limits as stored', schema: LimitsResponse },
    errors: [400, 401, 404, 413, 429],
  }),
  run: defineRoute({
    method: 'post',
    path: '/usage/bases/{id}/run',
    operationId: 'runUsageCount',
    summary: 'Count now',
    description:
      'Counts every table now and stores the result as today’s snapshot in the base’s timezone (replacing an earlier count of today). 409 while a count of this base runs; 502 when the upstream fails, leaving the previous snapshot intact; 404 when the account’s connection no longer sees the base.',
    tag,
    params: IdParams,
    success: { status: 200, description: 'The totals of the count', schema: RunResultBody },
    errors: [401, 404, 409, 429, 502, 503],
  }),
};
