import { DateTimeResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { RestoreType } from './types/restore.type.js';

// A Relay mutation: one `input` argument, a payload echoing clientMutationId. Values are checked by REST's body schema.

@InputType('RestoreRecordsInput', {
  description: 'Records to set back from the mirror (REST POST /monitoring-config/{id}/restores body, with the config)',
})
export class RestoreRecordsInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the monitoring config whose mirror is read' })
  configId: string;

  @Field(() => String, { description: 'The table (tbl…) of the records' })
  tableId: string;

  @Field(() => [String], { description: 'The records (rec…), 1–1000: deleted ones are re-created, existing ones set back' })
  recordIds: string[];

  @Field(() => DateTimeResolver, {
    nullable: true,
    description:
      'The instant whose values are restored, not in the future; default now (a deleted record gets its values from just before its deletion)',
  })
  at?: Date | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Only these fields (fld…) of existing records; default all that changed. Those the table lacks are skipped and listed',
  })
  fieldIds?: string[] | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'true: answer what would be written and write nothing (the restore is not kept: node(id) finds none). false, null or absent: a real restore',
  })
  dryRun?: boolean | null;
}

@ObjectType('RestoreRecordsPayload', { description: 'What restoreRecords planned' })
export class RestoreRecordsPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => RestoreType, {
    description: 'The restore: PLANNED and queued (or DONE when nothing needed writing); refetch it with node(id)',
  })
  restore: RestoreType;
}
