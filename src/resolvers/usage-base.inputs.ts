import { SafeIntResolver, TimeZoneResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { UsageBaseEdge } from './types/connections.js';
import { RunResultType } from './types/run-result.type.js';
import { SnapshotDayType } from './types/snapshot.type.js';
import { UsageBaseType } from './types/usage-base.type.js';
import { UsageCountingType } from './types/usage-insight.type.js';
import { UsageLimitsType, UsagePlan } from './types/usage-limits.type.js';

// Relay mutations: one `input` argument, a payload echoing clientMutationId. Values are checked by the REST schemas.

@InputType('CreateUsageBaseInput', { description: 'An upstream base to track for daily counts (REST POST /usage/bases body)' })
export class CreateUsageBaseInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, {
    description: 'The upstream base id (app…); one the connection cannot see is not_found, one tracked already a conflict',
  })
  baseId: string;

  @Field(() => String, { nullable: true, description: 'Display name, 1–255 characters; default: the base’s name upstream' })
  baseName?: string | null;

  @Field(() => Int, { nullable: true, description: 'Hour of the daily count, 0–23, in `timezone`; default 0' })
  scheduledHour?: number | null;

  @Field(() => TimeZoneResolver, { nullable: true, description: 'Zone (IANA id or UTC) of the hour and of snapshot dates; default UTC' })
  timezone?: string | null;
}

@InputType('UpdateUsageBaseInput', {
  description: 'What to change in a tracked base (REST PATCH /usage/bases/{id}); fields left out or null stay as they are',
})
export class UpdateUsageBaseInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the usage base' })
  id: string;

  @Field(() => String, { nullable: true, description: 'New display name, 1–255 characters' })
  baseName?: string | null;

  @Field(() => Int, { nullable: true, description: 'New hour of the daily count, 0–23, in the base’s zone; the daily job moves at once' })
  scheduledHour?: number | null;

  @Field(() => TimeZoneResolver, {
    nullable: true,
    description: 'New zone (IANA id or UTC) of the hour and of later snapshot dates; the daily job moves at once',
  })
  timezone?: string | null;
}

@InputType('DeleteUsageBaseInput', { description: 'The tracked base to stop tracking' })
export class DeleteUsageBaseInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the usage base' })
  id: string;
}

@InputType('RunUsageCountInput', { description: 'The tracked base to count now' })
export class RunUsageCountInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the usage base' })
  id: string;
}

@ObjectType('CreateUsageBasePayload', { description: 'What createUsageBase made' })
export class CreateUsageBasePayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => UsageBaseType, { description: 'The newly tracked base; its first count runs at its hour, or with runUsageCount' })
  usageBase: UsageBaseType;

  @Field(() => UsageBaseEdge, { description: 'The new base as an edge of `usageBases`, for Relay’s @appendEdge' })
  usageBaseEdge: UsageBaseEdge;
}

@ObjectType('UpdateUsageBasePayload', { description: 'What updateUsageBase changed' })
export class UpdateUsageBasePayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => UsageBaseType, { description: 'The base as updated' })
  usageBase: UsageBaseType;
}

@ObjectType('DeleteUsageBasePayload', { description: 'What deleteUsageBase removed: the base, its daily job and its snapshots' })
export class DeleteUsageBasePayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => ID, {
    description: 'Global id of the deleted usage base',
    deprecationReason: 'Use deletedId, which every delete payload has',
  })
  deletedUsageBaseId: string;

  @Field(() => ID, { description: 'Global id of the deleted usage base, for Relay’s @deleteRecord' })
  deletedId: string;
}

@ObjectType('RunUsageCountPayload', { description: 'What runUsageCount counted and stored' })
export class RunUsageCountPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => RunResultType, { description: 'The totals (REST’s answer to POST /usage/bases/{id}/run)' })
  runResult: RunResultType;

  @Field(() => UsageBaseType, { description: 'The base counted' })
  usageBase: UsageBaseType;

  @Field(() => SnapshotDayType, {
    nullable: true,
    description: 'The day just stored, with its tables; null only if it was deleted meanwhile',
  })
  snapshot: SnapshotDayType | null;
}

@InputType('SetUsageLimitsInput', {
  description: 'A base’s limits and thresholds (REST PUT /usage/bases/{id}/limits); fields left out stay as they are',
})
export class SetUsageLimitsInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the usage base' })
  id: string;

  @Field(() => UsagePlan, {
    nullable: true,
    description: 'A named plan fills both limits; CUSTOM keeps the numbers given; null clears both limits',
  })
  plan?: UsagePlan | null;

  @Field(() => SafeIntResolver, { nullable: true, description: 'Records the base may hold (makes the plan CUSTOM); null: no limit' })
  recordLimit?: number | null;

  @Field(() => SafeIntResolver, {
    nullable: true,
    description: 'Bytes of attachments the base may hold (makes the plan CUSTOM); null: no limit',
  })
  storageLimitBytes?: number | null;

  @Field(() => [Int], {
    nullable: true,
    description: 'Percents of each limit at which an alert is recorded: 1–1000, at most 10, no repeats',
  })
  thresholds?: number[] | null;
}

@ObjectType('SetUsageLimitsPayload', { description: 'What setUsageLimits stored' })
export class SetUsageLimitsPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => UsageBaseType, { description: 'The base whose limits these are' })
  usageBase: UsageBaseType;

  @Field(() => UsageLimitsType, { description: 'The limits as stored' })
  limits: UsageLimitsType;
}

@InputType('SetUsageCountingInput', {
  description: 'Whether a base’s scheduled count is skipped on days without changes (REST PUT /usage/bases/{id}/counting)',
})
export class SetUsageCountingInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the usage base' })
  id: string;

  @Field(() => Boolean, { description: 'Skip the scheduled count on a day the audit log shows no change of the base' })
  countOnlyWhenChanged: boolean;
}

@ObjectType('SetUsageCountingPayload', { description: 'What setUsageCounting stored' })
export class SetUsageCountingPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => UsageBaseType, { description: 'The base whose counting this is' })
  usageBase: UsageBaseType;

  @Field(() => UsageCountingType, { description: 'The setting as stored, with the last 30 days’ costs' })
  counting: UsageCountingType;
}
