import { DateTimeResolver, JSONObjectResolver, LocalDateResolver, TimeZoneResolver } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import type { ChangeEntry } from '../../entities/index.js';
import type { ChangeEventType, ChangeKind, ChangeSource } from '../../services/audit/change-event.js';
import type { ChangeRecord } from '../../services/audit/change-row.js';
import { toGlobalId } from '../relay/global-id.js';
import { ChangeEventTypeEnum, ChangeKindEnum, ChangeSourceEnum } from './change-enums.js';
import { Node } from './node.type.js';

/** One logged change (REST `records[]` of GET /monitoring-config/{id}/changes); its config is resolved by ChangeResolver. */
@ObjectType('Change', {
  implements: Node,
  description:
    'One logged change of a monitored base: one record, field or table touched (REST `records[]` of GET /monitoring-config/{id}/changes)',
})
export class ChangeType extends Node {
  @Field(() => String, { description: 'The service’s stable id of this change (`id` in REST)' })
  restId: string;

  @Field(() => String, {
    nullable: true,
    description: 'The row (rec…) of this change in the Changes table of the monitoring base; null until written there (seconds later)',
  })
  monitoringRecordId: string | null;

  @Field(() => DateTimeResolver, { description: 'When the upstream change happened (UTC, milliseconds): the upstream payload’s timestamp' })
  occurredAt: string;

  @Field(() => ChangeEventTypeEnum, { description: 'What the change did' })
  eventType: ChangeEventType;

  @Field(() => ChangeKindEnum, { description: 'RECORD for RECORD_* event types, SCHEMA for the others' })
  kind: ChangeKind;

  @Field(() => String, { description: 'The table (tbl…) of the change' })
  tableId: string;

  @Field(() => String, { description: 'The table’s name as last known to the service (a deleted table keeps it); "" when never learnt' })
  tableName: string;

  @Field(() => String, {
    nullable: true,
    description: 'The record (rec…), or the field id (fld…) for COLUMN_* events; null for TABLE_* events',
  })
  recordId: string | null;

  @Field(() => [String], {
    description: 'Field ids: those whose value changed (RECORD_UPDATE), the field itself (COLUMN_*), else empty',
  })
  fieldIds: string[];

  @Field(() => ChangeSourceEnum, { description: 'Where the change came from, as the upstream reports it' })
  source: ChangeSource;

  @Field(() => String, {
    nullable: true,
    description: 'E-mail of the upstream user who made the change; null when the upstream names nobody',
  })
  userEmail: string | null;

  @Field(() => String, { nullable: true, description: 'Name of that user; null when the upstream names nobody' })
  userName: string | null;

  @Field(() => JSONObjectResolver, {
    nullable: true,
    description:
      'Before the change: the changed cells by field id (RECORD_UPDATE), the changed field definition (COLUMN_UPDATE), the table metadata (TABLE_UPDATE) or `{ name }` (TABLE_DELETE); null for creates and record and field deletes',
  })
  before: Record<string, unknown> | null;

  @Field(() => JSONObjectResolver, {
    nullable: true,
    description:
      'After the change: the cells by field id (RECORD_CREATE, RECORD_UPDATE), the field definition (COLUMN_CREATE, COLUMN_UPDATE) or the table definition (TABLE_CREATE, TABLE_UPDATE); null for deletes',
  })
  after: Record<string, unknown> | null;

  /** The monitoring config's REST id (not a GraphQL field). */
  configId: string;
}

/** The filters of REST GET …/changes; they combine (AND). */
@InputType('ChangeFilter', {
  description: 'The filters of REST GET /monitoring-config/{id}/changes; those given combine (AND); null counts as not given',
})
export class ChangeFilterInput {
  @Field(() => ChangeEventTypeEnum, { nullable: true, description: 'Only changes of this event type' })
  eventType?: ChangeEventType | null;

  @Field(() => ChangeKindEnum, { nullable: true, description: 'Only record changes, or only schema changes' })
  kind?: ChangeKind | null;

  @Field(() => String, { nullable: true, description: 'Only changes of this table (tbl…; 1–255 characters)' })
  tableId?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Only changes of this record (rec…), or of this field (fld…) for COLUMN_* events; 1–255 characters',
  })
  recordId?: string | null;

  @Field(() => ChangeSourceEnum, { nullable: true, description: 'Only changes from this source' })
  source?: ChangeSource | null;

  @Field(() => String, { nullable: true, description: 'Only changes by the user with this e-mail (exact match; 1–255 characters)' })
  userEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'Only changes whose fieldIds hold this field id (fld…; 1–255 characters)' })
  fieldId?: string | null;

  @Field(() => LocalDateResolver, {
    nullable: true,
    description: 'Only changes on or after the start of this day (YYYY-MM-DD) in `timezone`',
  })
  from?: string | null;

  @Field(() => LocalDateResolver, {
    nullable: true,
    description: 'Only changes on or before the end of this day (YYYY-MM-DD) in `timezone`; not before `from`',
  })
  to?: string | null;

  @Field(() => TimeZoneResolver, {
    nullable: true,
    description: 'The zone in which `from` and `to` are read: UTC (the default) or an IANA zone id',
  })
  timezone?: string | null;
}

/** Field by field: Object.assign over a spread cost 4 µs per change here, a fifth of a 50-change page's resolving. */
export function toChangeType(configId: string, record: ChangeRecord): ChangeType {
  const change = new ChangeType();
  change.id = toGlobalId('Change', configId, record.id);
  change.restId = record.id;
  change.monitoringRecordId = record.monitoringRecordId;
  change.occurredAt = record.occurredAt;
  change.eventType = record.eventType;
  change.kind = record.kind;
  change.tableId = record.tableId;
  change.tableName = record.tableName;
  change.recordId = record.recordId;
  change.fieldIds = record.fieldIds;
  change.source = record.source;
  change.userEmail = record.userEmail;
  change.userName = record.userName;
  change.before = record.before;
  change.after = record.after;
  change.configId = configId;
  return change;
}

/** A change just logged (ingestion's entity) as GET …/changes shows it. */
export const changeRecordOf = (entry: ChangeEntry): ChangeRecord => ({
  id: String(entry.id),
  monitoringRecordId: entry.monitoringRecordId,
  occurredAt: entry.occurredAt.toISOString(),
  eventType: entry.eventType as ChangeEventType,
  kind: entry.kind as ChangeKind,
  tableId: entry.tableId,
  tableName: entry.tableName,
  recordId: entry.recordId,
  fieldIds: JSON.parse(entry.fieldIds) as string[],
  source: entry.source as ChangeSource,
  userEmail: entry.userEmail,
  userName: entry.userName,
  before: entry.beforeJson === null ? null : (JSON.parse(entry.beforeJson) as Record<string, unknown>),
  after: entry.afterJson === null ? null : (JSON.parse(entry.afterJson) as Record<string, unknown>),
});
