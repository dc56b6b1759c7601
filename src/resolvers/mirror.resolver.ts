import { DateTimeResolver, LocalDateResolver, TimeZoneResolver } from 'graphql-scalars';
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { mirrorInput, SEARCH_LIMIT } from '../services/mirror/mirror.input.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { deletedCursors, deletedSource, historyCursors, historySource } from './mirror-pages.js';
import { connectionCost } from './relay/cost.js';
import { ForwardConnectionArgs, forwardPage } from './relay/forward-page.js';
import { DeletedRecordConnection, RecordVersionConnection } from './types/connections.js';
import {
  MirroredRecordType,
  MirrorRecordMatchType,
  MirrorType,
  toMirroredRecordType,
  toMirrorRecordMatchType,
  toMirrorType,
} from './types/mirror.type.js';
import { MonitoringConfigType } from './types/monitoring-config.type.js';
import { parseInput } from './validate-input.js';

/** REST's default page size of both lists. */
const PAGE = 50;
const DELETED_FILTER = mirrorInput.deleted.pick({ tableId: true, from: true, to: true, timezone: true });

@ArgsType()
class RecordHistoryArgs extends ForwardConnectionArgs {
  @Field(() => String, { description: 'The record (rec…)' })
  recordId: string;
}

@ArgsType()
class DeletedRecordsArgs extends ForwardConnectionArgs {
  @Field(() => String, { nullable: true, description: 'Only records of this table (tbl…)' })
  tableId?: string | null;

  @Field(() => LocalDateResolver, { nullable: true, description: 'Only records deleted on or after the start of this day in `timezone`' })
  from?: string | null;

  @Field(() => LocalDateResolver, {
    nullable: true,
    description: 'Only records deleted on or before the end of this day in `timezone`; not before `from`',
  })
  to?: string | null;

  @Field(() => TimeZoneResolver, {
    nullable: true,
    description: 'The zone in which `from` and `to` are read: UTC (the default) or an IANA zone id',
  })
  timezone?: string | null;
}

/** The mirror of a config's base (CONTRACT §11), read through the config as REST's /monitoring-config/{id}/… paths. */
@Resolver(() => MonitoringConfigType)
export class MonitoringConfigMirrorResolver {
  @FieldResolver(() => MirrorType, { description: 'The mirror of the monitored base (REST GET /monitoring-config/{id}/mirror)' })
  async mirror(@Root() config: MonitoringConfigType, @Ctx() context: GraphqlContext): Promise<MirrorType> {
    return toMirrorType(await context.services.mirrorReads.state(requireAccount(context).id, config.restId));
  }

  @FieldResolver(() => MirroredRecordType, {
    nullable: true,
    description:
      'A record as it stood at an instant (REST GET /monitoring-config/{id}/records/{recordId}): not_found when it had not been created by then or is unknown; invalid_request for an instant before the mirror’s seededAt or older than the retention; conflict during the first seed',
  })
  async record(
    @Root() config: MonitoringConfigType,
    @Arg('id', () => String, { description: 'The record (rec…)' }) id: string,
    @Arg('at', () => DateTimeResolver, { nullable: true, description: 'The instant, not in the future; default now' }) at:
      | Date
      | null
      | undefined,
    @Ctx() context: GraphqlContext,
  ): Promise<MirroredRecordType> {
    const { recordId } = parseInput(mirrorInput.recordParams, { recordId: id }, 'record', { recordId: 'id' });
    const record = await context.services.mirrorReads.record(requireAccount(context).id, config.restId, recordId, at?.toISOString());
    return toMirroredRecordType(record);
  }

  @FieldResolver(() => [MirrorRecordMatchType], {
    description:
      'Records not deleted whose primary field’s value contains `search` (any case), or whose id starts with it (rec and at least 2 more characters, exact case), ordered by that value then id (REST GET /monitoring-config/{id}/records?search=): a bounded lookup for pickers, not a paged list; conflict during the first seed',
    // The selection once per match it may return (the count is checked against 1–50 when resolved).
    complexity: ({ args, childComplexity }) =>
      1 + childComplexity * Math.min(SEARCH_LIMIT.max, Math.max(1, Number(args.first ?? SEARCH_LIMIT.default) || 0)),
  })
  async mirroredRecords(
    @Root() config: MonitoringConfigType,
    @Arg('search', () => String, {
      description: 'Part of the primary field’s value (any case), or the start of a record id (rec…); 1–200 characters',
    })
    search: string,
    @Arg('tableId', () => String, { nullable: true, description: 'Only records of this table (tbl…)' }) tableId: string | null | undefined,
    @Arg('first', () => Int, { nullable: true, defaultValue: SEARCH_LIMIT.default, description: 'At most this many matches: 1–50' })
    first: number | null | undefined,
    @Ctx() context: GraphqlContext,
  ): Promise<MirrorRecordMatchType[]> {
    const input = parseInput(mirrorInput.searchArgs, { search, tableId, limit: first }, 'mirroredRecords', { limit: 'first' });
    const matches = await context.services.mirrorReads.searchRecords(requireAccount(context).id, config.restId, input);
    return matches.map(toMirrorRecordMatchType);
  }

  @FieldResolver(() => RecordVersionConnection, {
    description:
      'A record’s versions, newest first, each with the whole record after it (REST GET /monitoring-config/{id}/records/{recordId}/history); pages forward; not_found for an unknown record, conflict while the mirror’s first seed runs',
    complexity: connectionCost(PAGE),
  })
  async recordHistory(
    @Root() config: MonitoringConfigType,
    @Args(() => RecordHistoryArgs) args: RecordHistoryArgs,
    @Ctx() context: GraphqlContext,
  ): Promise<RecordVersionConnection> {
    const { recordId } = parseInput(mirrorInput.recordParams, { recordId: args.recordId }, 'recordHistory');
    const { mirror } = await context.services.mirrorReads.mirrorOf(requireAccount(context).id, config.restId);
    return forwardPage(args, historySource(context, mirror, recordId), historyCursors(context, config.restId, recordId), PAGE);
  }

  @FieldResolver(() => DeletedRecordConnection, {
    description: 'Deleted records with their last values, newest first (REST GET /monitoring-config/{id}/deleted-records); pages forward',
    complexity: connectionCost(PAGE),
  })
  async deletedRecords(
    @Root() config: MonitoringConfigType,
    @Args(() => DeletedRecordsArgs) args: DeletedRecordsArgs,
    @Ctx() context: GraphqlContext,
  ): Promise<DeletedRecordConnection> {
    const { tableId, from, to, timezone } = args;
    const filter = parseInput(DELETED_FILTER, { tableId, from, to, timezone }, 'deletedRecords');
    const { mirror } = await context.services.mirrorReads.mirrorOf(requireAccount(context).id, config.restId);
    return forwardPage(args, deletedSource(context, mirror, filter), deletedCursors(context, config.restId), PAGE);
  }
}
