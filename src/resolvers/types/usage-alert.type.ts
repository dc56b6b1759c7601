import { DateTimeResolver, LocalDateResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { UsageAlert, UsageMetric } from '../../entities/index.js';
import { percentOf } from '../../services/usage-insight/usage-alert.service.js';
import { connectionType } from '../relay/connection.type.js';
import { toGlobalId } from '../relay/global-id.js';
import { serviceEnum } from './graphql-enum.js';
import { Node } from './node.type.js';

export const UsageMetricEnum = serviceEnum<UsageMetric>(
  'UsageMetric',
  'What a limit caps. REST spells the values in lower case (`records`).',
  {
    records: 'Records of the base',
    storage: 'Bytes of attachment storage of the base',
  },
);

@ObjectType('UsageAlert', {
  implements: Node,
  description: 'A count of a tracked base that crossed one of its thresholds upwards (REST GET /usage/alerts)',
})
export class UsageAlertType extends Node {
  @Field(() => String, { description: 'The alert’s id (`id` in REST, a UUID)' })
  restId: string;

  @Field(() => String, { description: 'The tracked base’s REST id (`usageBaseId`)' })
  usageBaseId: string;

  @Field(() => ID, { description: 'The upstream base (app…)' })
  baseId: string;

  @Field(() => UsageMetricEnum, { description: 'The limit crossed' })
  metric: UsageMetric;

  @Field(() => Int, { description: 'The percent of the limit crossed' })
  threshold: number;

  @Field(() => SafeIntResolver, { description: 'The count that crossed it (records, or bytes)' })
  value: number;

  @Field(() => SafeIntResolver, { description: 'The limit at the time' })
  limit: number;

  @Field(() => Float, { description: 'value ÷ limit × 100, to one decimal' })
  percent: number;

  @Field(() => LocalDateResolver, { description: 'The counted day (YYYY-MM-DD, in the base’s time zone)' })
  date: string;

  @Field(() => DateTimeResolver, { description: 'When the alert was recorded (UTC)' })
  createdAt: Date;
}

export const toUsageAlertType = (alert: UsageAlert): UsageAlertType =>
  Object.assign(new UsageAlertType(), {
    id: toGlobalId('UsageAlert', alert.id),
    restId: alert.id,
    usageBaseId: alert.usageBaseId,
    baseId: alert.baseId,
    metric: alert.metric,
    threshold: alert.threshold,
    value: alert.value,
    limit: alert.limit,
    percent: percentOf(alert.value, alert.limit),
    date: alert.date,
    createdAt: alert.createdAt,
  });

export const UsageAlertConnection = connectionType('UsageAlert', UsageAlertType);
export type UsageAlertConnection = InstanceType<typeof UsageAlertConnection>;
