import { DateTimeResolver, NonNegativeIntResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { RestoreStatus } from '../../entities/index.js';
import type { RestoreView } from '../../services/mirror/mirror-restore.service.js';
import { toGlobalId } from '../relay/global-id.js';
import { serviceEnum } from './graphql-enum.js';
import { Node } from './node.type.js';

export const RestoreStatusEnum = serviceEnum<RestoreStatus>(
  'RestoreStatus',
  'Where a restore stands. REST spells the values in lower case (`running`).',
  {
    planned: 'Planned and queued (a dry run stays here: nothing is written)',
    running: 'Being written upstream, 10 records a request',
    done: 'Everything planned was written',
    failed: 'The upstream refused a write for good; `error` says why',
  },
);

@ObjectType('RestoreProgress', { description: 'How far a restore has written' })
export class RestoreProgressType {
  @Field(() => NonNegativeIntResolver, { description: 'Records written so far' })
  done: number;

  @Field(() => NonNegativeIntResolver, { description: 'Records to write in all' })
  total: number;
}

@ObjectType('RecreatedRecord', { description: 'A deleted record and the record a restore created again in its place' })
export class RecreatedRecordType {
  @Field(() => String, { description: 'The deleted record (rec…)' })
  deletedRecordId: string;

  @Field(() => String, { description: 'The record (rec…) that re-creates it upstream' })
  recordId: string;
}

/** A restore of mirrored records (REST `Restore`); the global id holds its monitoring config's id and its own. */
@ObjectType('Restore', {
  implements: Node,
  description:
    'Records set back from the mirror (REST `Restore` of POST /monitoring-config/{id}/restores): deleted ones re-created with their last values, existing ones given their values at `at` back',
})
export class RestoreType extends Node {
  @Field(() => String, { description: 'The id of REST paths /monitoring-config/{id}/restores/{restoreId} (a UUID)' })
  restId: string;

  @Field(() => RestoreStatusEnum, { description: 'Planned, running, done or failed' })
  status: RestoreStatus;

  @Field(() => DateTimeResolver, { description: 'The instant whose values are restored (UTC)' })
  at: Date;

  @Field(() => String, { description: 'The table (tbl…) of the records' })
  tableId: string;

  @Field(() => NonNegativeIntResolver, { description: 'Deleted records to re-create' })
  create: number;

  @Field(() => NonNegativeIntResolver, { description: 'Existing records whose fields are set back' })
  update: number;

  @Field(() => [String], {
    description: 'Fields (fld…) left out: gone upstream, or computed (formula, rollup, lookup, count, …: they cannot be written)',
  })
  skippedFieldIds: string[];

  @Field(() => RestoreProgressType, { description: 'Records written of those planned' })
  progress: RestoreProgressType;

  @Field(() => [RecreatedRecordType], { description: 'Each re-created record with its new id, as the writes go (REST `createdRecordIds`)' })
  createdRecordIds: RecreatedRecordType[];

  @Field(() => String, { nullable: true, description: 'Why the restore failed; null unless FAILED' })
  error: string | null;

  @Field(() => DateTimeResolver, { description: 'When the restore was asked for (UTC)' })
  createdAt: Date;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When it ended, done or failed (UTC); null before' })
  finishedAt: Date | null;
}

export const toRestoreType = (configId: string, restore: RestoreView): RestoreType =>
  Object.assign(new RestoreType(), {
    id: toGlobalId('Restore', configId, restore.id),
    restId: restore.id,
    status: restore.status,
    at: restore.at,
    tableId: restore.tableId,
    create: restore.create,
    update: restore.update,
    skippedFieldIds: restore.skippedFieldIds,
    progress: Object.assign(new RestoreProgressType(), restore.progress),
    createdRecordIds: Object.entries(restore.createdRecordIds).map(([deletedRecordId, recordId]) =>
      Object.assign(new RecreatedRecordType(), { deletedRecordId, recordId }),
    ),
    error: restore.error,
    createdAt: restore.createdAt,
    finishedAt: restore.finishedAt,
  });
