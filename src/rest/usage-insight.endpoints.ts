import { z } from './zod.js';
import { defineRoute } from './http/route.js';
import { countingInput } from '../services/usage-insight/counting.input.js';
import { usageAlertInput } from '../services/usage-insight/usage-alert.input.js';
import { ServiceId, Timestamp } from './schemas.js';

const tag = 'Usage insight';

export const UsageMetric = z.enum(['records', 'storage']).openapi({ description: 'records counted, or bytes of attachment storage' });

const Day = z.string().openapi({ format: 'date' });

const AlertBody = z
  .strictObject({
    id: z.string().openapi({ format: 'uuid' }),
    usageBaseId: z.string().openapi({ format: 'uuid' }),
    baseId: z.string(),
    metric: UsageMetric,
    threshold: z.number().int().openapi({ description: 'the percent of the limit crossed upwards' }),
    value: z.number().int().openapi({ description: 'the count that crossed it' }),
    limit: z.number().int(),
    percent: z.number().openapi({ description: 'value ÷ limit × 100, to one decimal' }),
    date: Day.openapi({ description: 'the counted day' }),
    createdAt: Timestamp,
  })
  .openapi('UsageAlert');

const ForecastBody = z
  .strictObject({
    metric: UsageMetric,
    limit: z.number().int().nullable(),
    current: z.number().int().nullable().openapi({ description: 'the newest count; null before the first' }),
    dailyGrowth: z.number().nullable().openapi({ description: 'the robust trend of the last 30 days, per day' }),
    reachesOn: Day.nullable().openapi({ description: 'the day the trend reaches the limit (the newest count’s day when it has already)' }),
    earliest: Day.nullable(),
    latest: Day.nullable(),
    status: z.enum(['ok', 'not_enough_history', 'not_within_a_year', 'no_limit']),
  })
  .openapi('UsageForecast');

const CountingBody = z
  .strictObject({
    countOnlyWhenChanged: z.boolean(),
    auditWatched: z
      .boolean()
      .openapi({ description: 'whether a monitoring config of the base logs its changes, which a skipped count relies on' }),
    days: z
      .array(
        z.strictObject({
          date: Day,
          apiCalls: z
            .number()
            .int()
            .nullable()
            .openapi({ description: 'upstream requests the count spent; null for counts before they were counted' }),
          carriedOver: z.boolean().openapi({ description: 'no count was needed: no change was logged since the last one' }),
          fromMirror: z.boolean().openapi({
            description: 'counted from the base’s live mirror (only the requests that confirm it is current), not by listing records',
          }),
        }),
      )
      .openapi({ description: 'the last 30 counted days, newest first' }),
    savedCalls: z
      .number()
      .int()
      .openapi({ description: 'upstream requests the carried-over days of those 30 did not spend, at the cost of the count before each' }),
  })
  .openapi('UsageCounting');

const IdParams = z.object({ id: ServiceId });

export const usageInsightRoutes = {
  alerts: defineRoute({
    method: 'get',
    path: '/usage/alerts',
    operationId: 'listUsageAlerts',
    summary: 'Threshold alerts of tracked bases, newest first (extension)',
    description:
      'An alert is recorded when a count reaches a threshold (a percent of the base’s record or storage limit, GET /usage/bases/{id}/limits) that the previous count was below: once per crossing, not again each day above it. Each is also POSTed to the account’s `usage_threshold` webhooks of the base. `nextCursor` is present only when an older page exists.',
    tag,
    query: usageAlertInput.list,
    success: {
      status: 200,
      description: 'A page of alerts',
      schema: z.strictObject({ alerts: z.array(AlertBody), nextCursor: z.string().optional() }),
    },
    errors: [400, 401, 429],
  }),
  forecast: defineRoute({
    method: 'get',
    path: '/usage/bases/{id}/forecast',
    operationId: 'getUsageForecast',
    summary: 'When each limit is reached at the recent pace (extension)',
    description:
      'One forecast per metric, from the counts of the last 30 days up to today (in the base’s time zone). The pace is a Theil–Sen trend (the median of the slopes between every two days) after cutting the history at jumps far outside the usual day-to-day change, so a bulk import or cleanup does not swing it; the projection starts from the trend’s level on the newest day. `earliest` and `latest` are a 90 % range from how uneven the daily additions are. `not_enough_history` until 7 days are counted in those 30; `not_within_a_year` when the pace is flat or shrinking or reaches the limit more than 365 days out (`earliest` may still be given); `no_limit` when the base has none. A limit already reached gives the newest count’s day.',
    tag,
    params: IdParams,
    success: {
      status: 200,
      description: 'The forecasts',
      schema: z.strictObject({ baseId: z.string(), forecasts: z.array(ForecastBody) }),
    },
    errors: [401, 404, 429],
  }),
  counting: defineRoute({
    method: 'get',
    path: '/usage/bases/{id}/counting',
    operationId: 'getUsageCounting',
    summary: 'What the daily count costs upstream, and whether it may be skipped (extension)',
    description:
      'With `countOnlyWhenChanged` and a monitoring config of the base (whose audit log sees every change), a scheduled count is skipped on a day without a logged change since the last count, and the last count’s figures carry over; a full count still runs at least every 7 days. Manual runs (POST …/run) always count.',
    tag,
    params: IdParams,
    success: { status: 200, description: 'The setting and the last 30 days’ costs', schema: z.strictObject({ counting: CountingBody }) },
    errors: [401, 404, 429],
  }),
  updateCounting: defineRoute({
    method: 'put',
    path: '/usage/bases/{id}/counting',
    operationId: 'setUsageCounting',
    summary: 'Skip scheduled counts on days without changes, or not (extension)',
    description: 'Off by default.',
    tag,
    params: IdParams,
    body: countingInput.update,
    success: { status: 200, description: 'The setting and the last 30 days’ costs', schema: z.strictObject({ counting: CountingBody }) },
    errors: [400, 401, 404, 413, 429],
  }),
};
