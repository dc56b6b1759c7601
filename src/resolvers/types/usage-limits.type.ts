import { SafeIntResolver } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import type { UsageLimits } from '../../services/usage-limits/usage-limits.service.js';
import { serviceEnum } from './graphql-enum.js';

export const UsagePlan = serviceEnum<NonNullable<UsageLimits['plan']>>(
  'UsagePlan',
  'The platform plan whose per-base limits apply, or limits of the base’s own. REST spells the values in lower case (`team`).',
  {
    free: 'Free: 1,000 records and 1 GiB of attachments per base',
    team: 'Team: 50,000 records and 20 GiB per base',
    business: 'Business: 125,000 records and 100 GiB per base',
    enterprise_scale: 'Enterprise Scale: 500,000 records and 1,000 GiB per base',
    custom: 'Limits of the base’s own',
  },
);
export type UsagePlan = NonNullable<UsageLimits['plan']>;

@ObjectType('UsageLimits', {
  description: 'A tracked base’s record and storage limits and alert thresholds (REST GET /usage/bases/{id}/limits)',
})
export class UsageLimitsType {
  @Field(() => UsagePlan, {
    nullable: true,
    description: 'The plan the limits come from, CUSTOM for numbers of the base’s own; null: no limits',
  })
  plan: UsagePlan | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Records the base may hold; null: no limit' })
  recordLimit: number | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Bytes of attachments the base may hold; null: no limit' })
  storageLimitBytes: number | null;

  @Field(() => [Int], { description: 'Percents of each limit at which an alert is recorded, ascending' })
  thresholds: number[];
}
