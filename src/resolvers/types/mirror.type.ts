import { DateTimeResolver, JSONObjectResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { MirrorBase } from '../../entities/index.js';
import type { ChangeSource } from '../../services/audit/change-event.js';
import type { DeletedRecord, MirroredRecord, MirrorState, RecordMatch, RecordVersion } from '../../services/mirror/mirror-read.service.js';
import { ChangeSourceEnum } from './change-enums.js';
import { serviceEnum } from './graphql-enum.js';

type MirrorStatus = MirrorBase['status'];
type VersionEvent = 'baseline' | 'record_create' | 'record_update' | 'record_delete' | 'column_delete';

export const MirrorStatusEnum = serviceEnum<MirrorStatus>(
  'MirrorStatus',
  'Where the mirror of a base stands. REST spells the values in lower case (`live`).',
  {
    seeding: 'A full read of the base is under way (the first, or one after a gap)',
    live: 'Every change since the last seed is in',
    gap: 'Changes may have been missed (the upstream watch expired or was re-created); it seeds itself again',
  },
);

export const RecordVersionEventEnum = serviceEnum<VersionEvent>(
  'RecordVersionEvent',
  'What made a version of a mirrored record. REST spells the values in lower case (`record_update`).',
  {
    baseline: 'The record as a seed read it: its first version, or after changes may have been missed',
    record_create: 'The record was created',
    record_update: 'Cells of the record changed',
    record_delete: 'The record was deleted',
    column_delete: 'A field of its table was deleted upstream: its cell is gone from the record',
  },
);

@ObjectType('MirrorField', { description: 'A field of a mirrored table, as the mirror last read the base’s schema' })
export class MirrorFieldType {
  @Field(() => String, { description: 'The field (fld…): the key of its cells in `fields` of records and versions' })
  fieldId: string;

  @Field(() => String, { description: 'Its name' })
  name: string;

  @Field(() => String, { description: 'Its type as the upstream names it (singleLineText, formula, …)' })
  type: string;
}

@ObjectType('MirrorTable', { description: 'A table of a mirrored base' })
export class MirrorTableType {
  @Field(() => String, { description: 'The table (tbl…)' })
  tableId: string;

  @Field(() => String, { description: 'Its name, as the mirror last read it' })
  tableName: string;

  @Field(() => SafeIntResolver, { description: 'Records of the table not deleted (0 before the first seed)' })
  recordCount: number;

  @Field(() => String, { description: 'Its primary field (fld…), whose value names a record' })
  primaryFieldId: string;

  @Field(() => [MirrorFieldType], {
    description:
      'Its fields now, in the base’s order, to name the field ids of cells (a field deleted since is not here; REST leaves this out)',
  })
  fields: MirrorFieldType[];
}

@ObjectType('Mirror', {
  description:
    'The mirror of a monitored base (REST GET /monitoring-config/{id}/mirror): every record with all its cells, seeded by a full read and kept current from the upstream webhook’s payloads; shared by every account whose connection sees the base',
})
export class MirrorType {
  @Field(() => MirrorStatusEnum, { description: 'Seeding, live, or gap (it seeds itself again)' })
  status: MirrorStatus;

  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'The first completed seed: point-in-time reads start here; null before it',
  })
  seededAt: Date | null;

  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'The last completed seed: no change was missed since; null before the first',
  })
  continuousSince: Date | null;

  @Field(() => [MirrorTableType], { description: 'Every table of the base, in the base’s order' })
  tables: MirrorTableType[];
}

@ObjectType('MirroredRecord', {
  description: 'A record as it stood at an instant (REST GET /monitoring-config/{id}/records/{recordId})',
})
export class MirroredRecordType {
  @Field(() => String, { description: 'The record (rec…); `id` in REST' })
  recordId: string;

  @Field(() => String, { description: 'Its table (tbl…)' })
  tableId: string;

  @Field(() => DateTimeResolver, { description: 'When the record was created upstream (UTC)' })
  createdTime: string;

  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'When it was deleted, if it was by the instant asked for (its fields are then its last values); null otherwise',
  })
  deletedAt: string | null;

  @Field(() => JSONObjectResolver, {
    description: 'Cell values by field id, as the upstream REST API returns them (returnFieldsByFieldId); empty cells are absent',
  })
  fields: Record<string, unknown>;
}

@ObjectType('RecordVersion', { description: 'One version of a mirrored record: the change that made it and the record after it' })
export class RecordVersionType {
  @Field(() => DateTimeResolver, { description: 'When the change happened (UTC), or when a seed read the record (BASELINE)' })
  at: string;

  @Field(() => RecordVersionEventEnum, { description: 'What made this version' })
  eventType: VersionEvent;

  @Field(() => ChangeSourceEnum, { description: 'Where the change came from, as the upstream reports it (UNKNOWN for a seed)' })
  source: ChangeSource;

  @Field(() => String, {
    nullable: true,
    description: 'E-mail of the upstream user who made the change; null when the upstream names nobody',
  })
  userEmail: string | null;

  @Field(() => JSONObjectResolver, { description: 'The whole record after this change, by field id; {} for RECORD_DELETE' })
  fields: Record<string, unknown>;
}

@ObjectType('DeletedRecord', { description: 'A deleted record with its last values (REST GET /monitoring-config/{id}/deleted-records)' })
export class DeletedRecordType {
  @Field(() => String, { description: 'The record (rec…); `id` in REST' })
  recordId: string;

  @Field(() => String, { description: 'Its table (tbl…)' })
  tableId: string;

  @Field(() => DateTimeResolver, { description: 'When it was deleted (UTC)' })
  deletedAt: string;

  @Field(() => String, { nullable: true, description: 'E-mail of the upstream user who deleted it; null when the upstream names nobody' })
  deletedBy: string | null;

  @Field(() => JSONObjectResolver, { description: 'Its values just before the deletion, by field id' })
  fields: Record<string, unknown>;

  @Field(() => String, {
    nullable: true,
    description: 'The record a restore re-created it as (rec…; restoring it again is refused); null while none has',
  })
  restoredAs: string | null;
}

@ObjectType('MirrorRecordMatch', {
  description: 'A mirrored record found by its primary field’s value or its id (REST GET /monitoring-config/{id}/records?search=)',
})
export class MirrorRecordMatchType {
  @Field(() => String, { description: 'The record (rec…); `id` in REST' })
  recordId: string;

  @Field(() => String, { description: 'Its table (tbl…)' })
  tableId: string;

  @Field(() => String, {
    nullable: true,
    description: 'Its primary field’s value as text (a list’s items joined by ", "); null when the field is empty',
  })
  primaryValue: string | null;
}

export const toMirrorRecordMatchType = (match: RecordMatch): MirrorRecordMatchType =>
  Object.assign(new MirrorRecordMatchType(), { recordId: match.id, tableId: match.tableId, primaryValue: match.primaryValue });

export const toMirrorType = (state: MirrorState): MirrorType =>
  Object.assign(new MirrorType(), {
    status: state.status,
    seededAt: state.seededAt,
    continuousSince: state.continuousSince,
    tables: state.tables.map((table) =>
      Object.assign(new MirrorTableType(), {
        ...table,
        fields: table.fields.map(({ id, name, type }) => Object.assign(new MirrorFieldType(), { fieldId: id, name, type })),
      }),
    ),
  });

export const toMirroredRecordType = (record: MirroredRecord): MirroredRecordType =>
  Object.assign(new MirroredRecordType(), {
    recordId: record.id,
    tableId: record.tableId,
    createdTime: record.createdTime,
    deletedAt: record.deletedAt,
    fields: record.fields,
  });

export const toRecordVersionType = (version: RecordVersion): RecordVersionType =>
  Object.assign(new RecordVersionType(), {
    at: version.at,
    eventType: version.eventType as VersionEvent,
    source: version.source as ChangeSource,
    userEmail: version.userEmail,
    fields: JSON.parse(version.fieldsJson) as Record<string, unknown>,
  });

export const toDeletedRecordType = (record: DeletedRecord, restoredAs: string | null): DeletedRecordType =>
  Object.assign(new DeletedRecordType(), {
    recordId: record.id,
    tableId: record.tableId,
    deletedAt: record.deletedAt,
    deletedBy: record.deletedBy,
    fields: record.fields,
    restoredAs,
  });
