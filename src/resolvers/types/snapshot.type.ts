import { LocalDateResolver, NonNegativeIntResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { TableCount } from '../../entities/index.js';
import type { SnapshotDay } from '../../services/snapshot.service.js';
import { toGlobalId } from '../relay/global-id.js';
import { Node } from './node.type.js';

@ObjectType('TableCount', { description: 'One table of a counted day' })
export class TableCountType {
  @Field(() => String)
  tableId: string;

  @Field(() => String)
  tableName: string;

  @Field(() => SafeIntResolver)
  recordCount: number;

  @Field(() => SafeIntResolver, { description: 'Bytes of attachment storage' })
  storageBytes: number;

  @Field(() => SafeIntResolver)
  fileCount: number;
}

@ObjectType('SnapshotTotals', { description: 'The totals of a counted day' })
export class SnapshotTotalsType {
  @Field(() => SafeIntResolver)
  recordCount: number;

  @Field(() => SafeIntResolver)
  storageBytes: number;

  @Field(() => SafeIntResolver)
  fileCount: number;

  @Field(() => NonNegativeIntResolver)
  tableCount: number;
}

/** A counted day of a usage base (REST `Snapshot day`); its usage base is resolved by SnapshotDayResolver. */
@ObjectType('SnapshotDay', { implements: Node, description: 'A counted day of a tracked base' })
export class SnapshotDayType extends Node {
  @Field(() => LocalDateResolver, { description: 'Calendar day in the base’s time zone' })
  date: string;

  @Field(() => [TableCountType])
  tables: TableCountType[];

  @Field(() => SnapshotTotalsType)
  totals: SnapshotTotalsType;

  /** The REST id of its usage base (not a GraphQL field). */
  usageBaseId: string;
}

/** Field by field, and the stored tables as parsed: GraphQL reads only the declared fields of each. */
export function toSnapshotDayType(usageBaseId: string, day: SnapshotDay): SnapshotDayType {
  const type = new SnapshotDayType();
  type.id = toGlobalId('SnapshotDay', usageBaseId, day.date);
  type.date = day.date;
  type.tables = JSON.parse(day.tablesJson) as TableCount[];
  type.totals = { ...day.totals };
  type.usageBaseId = usageBaseId;
  return type;
}
