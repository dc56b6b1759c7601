import { TimeZoneResolver } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { RunResultType } from './types/run-result.type.js';
import { SnapshotDayType } from './types/snapshot.type.js';
import { UsageBaseType } from './types/usage-base.type.js';

// Relay mutations: one `input` argument, a payload echoing clientMutationId. Values are checked by the REST schemas.

@InputType('CreateUsageBaseInput')
export class CreateUsageBaseInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => String, { description: 'Upstream base id (app…)' })
  baseId: string;

  @Field(() => String, { nullable: true, description: 'Default: the upstream name' })
  baseName?: string | null;

  @Field(() => Int, { nullable: true, description: 'Local hour of the daily count, 0–23; default 0' })
  scheduledHour?: number | null;

  @Field(() => TimeZoneResolver, { nullable: true, description: 'IANA zone or UTC; default UTC' })
  timezone?: string | null;
}

@InputType('UpdateUsageBaseInput')
export class UpdateUsageBaseInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the usage base' })
  id: string;

  @Field(() => String, { nullable: true })
  baseName?: string | null;

  @Field(() => Int, { nullable: true })
  scheduledHour?: number | null;

  @Field(() => TimeZoneResolver, { nullable: true })
  timezone?: string | null;
}

@InputType('DeleteUsageBaseInput')
export class DeleteUsageBaseInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the usage base' })
  id: string;
}

@InputType('RunUsageCountInput')
export class RunUsageCountInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the usage base' })
  id: string;
}

@ObjectType('CreateUsageBasePayload')
export class CreateUsageBasePayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => UsageBaseType)
  usageBase: UsageBaseType;
}

@ObjectType('UpdateUsageBasePayload')
export class UpdateUsageBasePayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => UsageBaseType)
  usageBase: UsageBaseType;
}

@ObjectType('DeleteUsageBasePayload')
export class DeleteUsageBasePayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => ID, { description: 'Global id of the deleted usage base' })
  deletedUsageBaseId: string;
}

@ObjectType('RunUsageCountPayload')
export class RunUsageCountPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => RunResultType)
  runResult: RunResultType;

  @Field(() => UsageBaseType)
  usageBase: UsageBaseType;

  @Field(() => SnapshotDayType, { nullable: true, description: 'The day just recorded' })
  snapshot: SnapshotDayType | null;
}
