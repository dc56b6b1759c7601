import { DateTimeResolver, TimeZoneResolver } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import type { UsageBase } from '../../entities/index.js';
import { toGlobalId } from '../relay/global-id.js';
import { Node } from './node.type.js';

/** A tracked base (REST `Usage base`); its snapshots, latest snapshot and schedule are resolved by UsageBaseResolver. */
@ObjectType('UsageBase', { implements: Node, description: 'An upstream base tracked for daily usage counts' })
export class UsageBaseType extends Node {
  @Field(() => String, { description: 'The id of REST paths /usage/bases/{id} (a UUID)' })
  restId: string;

  @Field(() => String, { description: 'Upstream base id' })
  baseId: string;

  @Field(() => String)
  baseName: string;

  @Field(() => Int, { description: 'Local hour of the daily count, 0–23' })
  scheduledHour: number;

  @Field(() => TimeZoneResolver)
  timezone: string;

  @Field(() => DateTimeResolver)
  createdAt: Date;

  @Field(() => DateTimeResolver)
  updatedAt: Date;

  /** The row itself, for the services (not a GraphQL field). */
  entity: UsageBase;
}

export const toUsageBaseType = (base: UsageBase): UsageBaseType =>
  Object.assign(new UsageBaseType(), {
    id: toGlobalId('UsageBase', base.id),
    restId: base.id,
    baseId: base.baseId,
    baseName: base.baseName,
    scheduledHour: base.scheduledHour,
    timezone: base.timezone,
    createdAt: base.createdAt,
    updatedAt: base.updatedAt,
    entity: base,
  });
