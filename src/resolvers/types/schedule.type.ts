import { DateTimeResolver } from 'graphql-scalars';
import { Field, ObjectType, registerEnumType } from 'type-graphql';

export enum ScheduledRunStatus {
  ok = 'ok',
  failed = 'failed',
  running = 'running',
}
registerEnumType(ScheduledRunStatus, { name: 'ScheduledRunStatus' });

@ObjectType('ScheduledRun', { description: 'A daily count run by the scheduler' })
export class ScheduledRunType {
  @Field(() => DateTimeResolver)
  startedAt: Date;

  @Field(() => DateTimeResolver, { nullable: true })
  finishedAt: Date | null;

  @Field(() => ScheduledRunStatus)
  status: ScheduledRunStatus;

  @Field(() => String, { nullable: true, description: 'Why a failed run failed' })
  error?: string | null;
}

@ObjectType('UsageSchedule', { description: 'Next and last scheduled count (REST GET /usage/bases/{id}/schedule)' })
export class UsageScheduleType {
  @Field(() => DateTimeResolver, { nullable: true, description: 'When the next daily count starts; null when none is planned' })
  nextRunAt: Date | null;

  @Field(() => ScheduledRunType, { nullable: true, description: 'The latest scheduled count; null before the first' })
  lastRun: ScheduledRunType | null;
}
