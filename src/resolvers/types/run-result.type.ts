import { LocalDateResolver, NonNegativeIntResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import { serviceEnum } from './graphql-enum.js';

type RunStatusValue = 'success';

export const RunStatus = serviceEnum<RunStatusValue>(
  'RunStatus',
  'How a count asked for now ended. REST spells the value in lower case (`success`).',
  { success: 'Every table was counted and the day’s snapshot stored (a count that fails answers an error instead)' },
);
export type RunStatus = RunStatusValue;

@ObjectType('RunResult', { description: 'The totals of a count (REST POST /usage/bases/{id}/run)' })
export class RunResultType {
  @Field(() => RunStatus, { description: 'Always SUCCESS: a count that fails is an error of the mutation' })
  status: RunStatus;

  @Field(() => NonNegativeIntResolver, { description: 'Tables counted' })
  tablesProcessed: number;

  @Field(() => SafeIntResolver, { description: 'Records in all tables' })
  totalRecords: number;

  @Field(() => SafeIntResolver, {
    description: 'Bytes of attachment storage in all tables (an attachment the upstream has not sized yet counts 0)',
  })
  totalAttachmentBytes: number;

  @Field(() => SafeIntResolver, { description: 'Attachments (files) in all tables' })
  totalFileCount: number;

  @Field(() => LocalDateResolver, {
    description: 'The day (YYYY-MM-DD, in the base’s time zone) stored with these counts; a second count that day replaces it',
  })
  snapshotDate: string;
}
