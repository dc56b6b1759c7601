import { DateTimeResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { UsageRunStatus } from '../../entities/index.js';
import { serviceEnum } from './graphql-enum.js';

export const ScheduledRunStatus = serviceEnum<UsageRunStatus>(
  'ScheduledRunStatus',
  'Where a scheduled count stands. REST spells the values in lower case (`ok`).',
  {
    running: 'Counting now',
    ok: 'Counted; the day’s snapshot is stored',
    failed:
      'Failed (see error); retried with backoff up to 3 times (by default), a paused account’s count not at all; the next day counts again',
  },
);
export type ScheduledRunStatus = UsageRunStatus;

@ObjectType('ScheduledRun', { description: 'A daily count run by the scheduler (a count asked for with runUsageCount is not one)' })
export class ScheduledRunType {
  @Field(() => DateTimeResolver, { description: 'When it started (UTC)' })
  startedAt: Date;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When it ended (UTC); null while running' })
  finishedAt: Date | null;

  @Field(() => ScheduledRunStatus, { description: 'Running, counted or failed' })
  status: ScheduledRunStatus;

  @Field(() => String, {
    nullable: true,
    description: 'Why a failed run failed (`Paused: …` while the account’s connection needs re-authorisation); null otherwise',
  })
  error?: string | null;
}

@ObjectType('UsageSchedule', { description: 'Next and last scheduled count (REST GET /usage/bases/{id}/schedule)' })
export class UsageScheduleType {
  @Field(() => DateTimeResolver, { nullable: true, description: 'When the next daily count starts (UTC); null when none is planned' })
  nextRunAt: Date | null;

  @Field(() => ScheduledRunType, { nullable: true, description: 'The latest scheduled count; null before the first' })
  lastRun: ScheduledRunType | null;
}
