import { LocalDateResolver, NonNegativeIntResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import type { SnapshotDay } from '../../services/snapshot.service.js';
import { toGlobalId } from '../relay/global-id.js';
import { Node } from './node.type.js';

@ObjectType('TableCount', { description: 'The counts of one table on a counted day' })
export class TableCountType {
  @Field(() => String, { description: 'The upstream table (tbl…)' })
  tableId: string;

  @Field(() => String, { description: 'The table’s name upstream when it was counted' })
  tableName: string;

  @Field(() => SafeIntResolver, { description: 'Records in the table' })
  recordCount: number;

  @Field(() => SafeIntResolver, {
    description: 'Bytes of attachment storage: the sizes of every attachment in the table (one the upstream has not sized yet counts 0)',
  })
  storageBytes: number;

  @Field(() => SafeIntResolver, { description: 'Attachments (files) in the table' })
  fileCount: number;
}

@ObjectType('SnapshotTotals', { description: 'The sums over every table of a counted day' })
export class SnapshotTotalsType {
  @Field(() => SafeIntResolver, { description: 'Records in all tables' })
  recordCount: number;

  @Field(() => SafeIntResolver, { description: 'Bytes of attachment storage in all tables' })
  storageBytes: number;

  @Field(() => SafeIntResolver, { description: 'Attachments (files) in all tables' })
  fileCount: number;

  @Field(() => NonNegativeIntResolver, { description: 'Tables counted' })
  tableCount: number;
}

/** A counted day of a usage base (REST `Snapshot day`); its usage base is resolved by SnapshotDayResolver. */
@ObjectType('SnapshotDay', {
  implements: Node,
  description: 'A counted day of a tracked base: the last count of that day (REST `Snapshot day`)',
})
export class SnapshotDayType extends Node {
  @Field(() => LocalDateResolver, { description: 'The calendar day (YYYY-MM-DD) in the base’s time zone' })
  date: string;

  @Field(() => [TableCountType], { description: 'One entry per table counted that day' })
  tables: TableCountType[];

  @Field(() => SnapshotTotalsType, { description: 'The sums over `tables`' })
  totals: SnapshotTotalsType;

  @Field(() => Int, {
    nullable: true,
    description:
      'Upstream API requests the day’s count spent, retries included (0 when carried over); null for counts made before they were counted',
  })
  apiCalls: number | null;

  @Field(() => Boolean, {
    description: 'No count was needed: with countOnlyWhenChanged and no change logged since, the last full count’s figures carried over',
  })
  carriedOver: boolean;

  /** The REST id of its usage base (not a GraphQL field). */
  usageBaseId: string;
}

/** Field by field, as plain objects. */
export function toSnapshotDayType(usageBaseId: string, day: SnapshotDay): SnapshotDayType {
  const type = new SnapshotDayType();
  type.id = toGlobalId('SnapshotDay', usageBaseId, day.date);
  type.date = day.date;
  type.tables = day.tables;
  type.totals = { ...day.totals };
  type.apiCalls = day.apiCalls;
  type.carriedOver = day.carriedOver;
  type.usageBaseId = usageBaseId;
  return type;
}
