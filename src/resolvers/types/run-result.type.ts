import { LocalDateResolver, NonNegativeIntResolver, SafeIntResolver } from 'graphql-scalars';
import { Field, ObjectType, registerEnumType } from 'type-graphql';

export enum RunStatus {
  success = 'success',
}
registerEnumType(RunStatus, { name: 'RunStatus' });

@ObjectType('RunResult', { description: 'The totals of a count (REST POST /usage/bases/{id}/run)' })
export class RunResultType {
  @Field(() => RunStatus)
  status: RunStatus;

  @Field(() => NonNegativeIntResolver)
  tablesProcessed: number;

  @Field(() => SafeIntResolver)
  totalRecords: number;

  @Field(() => SafeIntResolver)
  totalAttachmentBytes: number;

  @Field(() => SafeIntResolver)
  totalFileCount: number;

  @Field(() => LocalDateResolver)
  snapshotDate: string;
}
