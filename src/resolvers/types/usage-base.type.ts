import { DateTimeResolver, TimeZoneResolver } from 'graphql-scalars';
import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { UsageBase } from '../../entities/index.js';
import { toGlobalId } from '../relay/global-id.js';
import { Node } from './node.type.js';

/** A tracked base (REST `Usage base`); its snapshots, latest snapshot and schedule are resolved by UsageBaseResolver. */
@ObjectType('UsageBase', {
  implements: Node,
  description: 'An upstream base whose records and attachment storage are counted daily (REST `Usage base`)',
})
export class UsageBaseType extends Node {
  @Field(() => String, { description: 'The id of REST paths /usage/bases/{id} (a UUID); not the upstream base id' })
  restId: string;

  @Field(() => ID, { description: 'The upstream base id (app…)' })
  baseId: string;

  @Field(() => String, { description: 'Display name, 1–255 characters (default: the upstream name when tracked)' })
  baseName: string;

  @Field(() => Int, { description: 'The hour (0–23) of the daily count, in `timezone`' })
  scheduledHour: number;

  @Field(() => TimeZoneResolver, { description: 'The zone (IANA id or UTC) of `scheduledHour` and of snapshot dates' })
  timezone: string;

  @Field(() => DateTimeResolver, { description: 'When tracking started (UTC)' })
  createdAt: Date;

  @Field(() => DateTimeResolver, { description: 'When name, hour or zone last changed (UTC)' })
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
