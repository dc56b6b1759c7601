import { LocalDateResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { UsageMetric } from '../../entities/index.js';
import type { ForecastStatus } from '../../services/usage-insight/forecast.js';
import { serviceEnum } from './graphql-enum.js';
import { UsageMetricEnum } from './usage-alert.type.js';

export const ForecastStatusEnum = serviceEnum<ForecastStatus>(
  'UsageForecastStatus',
  'What a forecast could say. REST spells the values in lower case (`not_within_a_year`).',
  {
    ok: 'reachesOn is the day the limit is reached at the recent pace (the newest count’s day when it is reached already)',
    not_enough_history: 'Fewer than 7 days counted in the last 30',
    not_within_a_year: 'The pace is flat or shrinking, or reaches the limit more than 365 days out',
    no_limit: 'The base has no limit for this metric',
  },
);

@ObjectType('UsageForecast', { description: 'When a limit is reached at the recent pace (REST GET /usage/bases/{id}/forecast)' })
export class UsageForecastType {
  @Field(() => UsageMetricEnum, { description: 'The limit forecast' })
  metric: UsageMetric;

  @Field(() => SafeIntResolver, { nullable: true, description: 'The limit; null: none' })
  limit: number | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'The newest count; null before the first' })
  current: number | null;

  @Field(() => Float, { nullable: true, description: 'The robust trend of the last 30 days, per day' })
  dailyGrowth: number | null;

  @Field(() => LocalDateResolver, { nullable: true, description: 'The day the limit is reached' })
  reachesOn: string | null;

  @Field(() => LocalDateResolver, { nullable: true, description: 'The earliest day of the 90 % range' })
  earliest: string | null;

  @Field(() => LocalDateResolver, { nullable: true, description: 'The latest day of the 90 % range' })
  latest: string | null;

  @Field(() => ForecastStatusEnum, { description: 'Whether there is a day to tell' })
  status: ForecastStatus;
}

@ObjectType('UsageCountDay', { description: 'What one counted day cost upstream' })
export class UsageCountDayType {
  @Field(() => LocalDateResolver, { description: 'The counted day' })
  date: string;

  @Field(() => Int, { nullable: true, description: 'Upstream requests the count spent; null for counts made before they were counted' })
  apiCalls: number | null;

  @Field(() => Boolean, { description: 'No count was needed: no change was logged since the last one' })
  carriedOver: boolean;

  @Field(() => Boolean, {
    description: 'Counted from the base’s live mirror (only the requests that confirm it is current), not by listing records',
  })
  fromMirror: boolean;
}

@ObjectType('UsageCounting', {
  description:
    'What the daily count costs upstream, and whether it is skipped on days without changes (REST GET /usage/bases/{id}/counting)',
})
export class UsageCountingType {
  @Field(() => Boolean, {
    description: 'Skip the scheduled count on a day the audit log shows no change (a full count still runs every 7 days)',
  })
  countOnlyWhenChanged: boolean;

  @Field(() => Boolean, {
    description: 'Whether a monitoring config with scope ALL logs every change of the base, which a skipped count relies on',
  })
  auditWatched: boolean;

  @Field(() => [UsageCountDayType], { description: 'The last 30 counted days, newest first' })
  days: UsageCountDayType[];

  @Field(() => Int, { description: 'Upstream requests the carried-over days of those 30 did not spend' })
  savedCalls: number;
}
