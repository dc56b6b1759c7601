import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { usageBaseInput } from '../services/usage-base.input.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { restIdToDelete } from './require-owned.js';
import { accountListEdge } from './relay/account-lists.js';
import { toGlobalId } from './relay/global-id.js';
import { requireUsageBase } from './usage-base.resolver.js';
import {
  CreateUsageBaseInput,
  CreateUsageBasePayload,
  DeleteUsageBaseInput,
  DeleteUsageBasePayload,
  RunUsageCountInput,
  RunUsageCountPayload,
  UpdateUsageBaseInput,
  SetUsageCountingInput,
  SetUsageCountingPayload,
  SetUsageLimitsInput,
  SetUsageLimitsPayload,
  UpdateUsageBasePayload,
} from './usage-base.inputs.js';
import { usageLimitsInput } from '../services/usage-limits/usage-limits.input.js';
import { countingInput } from '../services/usage-insight/counting.input.js';
import { parseInput, parseInputKeepingNulls } from './validate-input.js';
import { RunStatus } from './types/run-result.type.js';
import { toSnapshotDayType } from './types/snapshot.type.js';
import { toUsageBaseType } from './types/usage-base.type.js';

/** The REST writes of usage bases, with the same body schemas and error codes. */
@Resolver()
export class UsageBaseMutations {
  @Mutation(() => CreateUsageBasePayload, { description: 'Track an upstream base (REST POST /usage/bases)' })
  async createUsageBase(
    @Arg('input', () => CreateUsageBaseInput, { description: 'The base to track and its schedule' }) input: CreateUsageBaseInput,
    @Ctx() context: GraphqlContext,
  ) {
    const account = requireAccount(context);
    const { baseId, baseName, scheduledHour, timezone } = input;
    const body = parseInput(usageBaseInput.create, { baseId, baseName, scheduledHour, timezone });
    const usageBase = toUsageBaseType(await context.services.usageBases.create(account.id, body));
    return {
      clientMutationId: input.clientMutationId ?? null,
      usageBase,
      usageBaseEdge: accountListEdge(context.services.cursors, 'usage-bases', account.id, usageBase),
    };
  }

  @Mutation(() => UpdateUsageBasePayload, { description: 'Change name, hour or zone (REST PATCH /usage/bases/{id})' })
  async updateUsageBase(
    @Arg('input', () => UpdateUsageBaseInput, { description: 'The base and what to change' }) input: UpdateUsageBaseInput,
    @Ctx() context: GraphqlContext,
  ) {
    const account = requireAccount(context);
    const { baseName, scheduledHour, timezone } = input;
    const body = parseInput(usageBaseInput.update, { baseName, scheduledHour, timezone });
    const { id } = await requireUsageBase(context, input.id);
    const base = await context.services.usageBases.update(account.id, id, body);
    context.loaders.usageBase.clear(id).prime(id, base);
    return { clientMutationId: input.clientMutationId ?? null, usageBase: toUsageBaseType(base) };
  }

  @Mutation(() => SetUsageLimitsPayload, {
    description: 'Set a plan or limits of the base’s own, and alert thresholds (REST PUT /usage/bases/{id}/limits)',
  })
  async setUsageLimits(
    @Arg('input', () => SetUsageLimitsInput, { description: 'The base and what to set' }) input: SetUsageLimitsInput,
    @Ctx() context: GraphqlContext,
  ) {
    const account = requireAccount(context);
    const { plan, recordLimit, storageLimitBytes, thresholds } = input;
    const body = parseInputKeepingNulls(usageLimitsInput.update, { plan, recordLimit, storageLimitBytes, thresholds });
    const base = await requireUsageBase(context, input.id);
    const limits = await context.services.usageLimits.update(account.id, base.id, body);
    return { clientMutationId: input.clientMutationId ?? null, usageBase: toUsageBaseType(base), limits };
  }

  @Mutation(() => SetUsageCountingPayload, {
    description: 'Skip the scheduled count on days without changes, or not (REST PUT /usage/bases/{id}/counting)',
  })
  async setUsageCounting(
    @Arg('input', () => SetUsageCountingInput, { description: 'The base and the setting' }) input: SetUsageCountingInput,
    @Ctx() context: GraphqlContext,
  ) {
    const account = requireAccount(context);
    const body = parseInput(countingInput.update, { countOnlyWhenChanged: input.countOnlyWhenChanged });
    const base = await requireUsageBase(context, input.id);
    const counting = await context.services.usageCounting.update(account.id, base.id, body);
    return { clientMutationId: input.clientMutationId ?? null, usageBase: toUsageBaseType(base), counting };
  }

  @Mutation(() => DeleteUsageBasePayload, { description: 'Stop tracking a base; its snapshots go (REST DELETE /usage/bases/{id})' })
  async deleteUsageBase(
    @Arg('input', () => DeleteUsageBaseInput, { description: 'The base to stop tracking' }) input: DeleteUsageBaseInput,
    @Ctx() context: GraphqlContext,
  ) {
    const account = requireAccount(context);
    const id = restIdToDelete(input.id, 'UsageBase', 'Usage base');
    await context.services.usageBases.remove(account.id, id);
    context.loaders.usageBase.clear(id);
    const deletedId = toGlobalId('UsageBase', id);
    return { clientMutationId: input.clientMutationId ?? null, deletedId, deletedUsageBaseId: deletedId };
  }

  @Mutation(() => RunUsageCountPayload, { description: 'Count every table now (REST POST /usage/bases/{id}/run)' })
  async runUsageCount(
    @Arg('input', () => RunUsageCountInput, { description: 'The base to count' }) input: RunUsageCountInput,
    @Ctx() context: GraphqlContext,
  ) {
    const base = await requireUsageBase(context, input.id);
    const result = await context.services.usageCounts.countTracked(base);
    const date = result.snapshotDate;
    const [day] = await context.services.snapshots.range(base, { from: date, to: date, limit: 1, order: 'newest' });
    context.loaders.latestSnapshot.clear(base.id);
    return {
      clientMutationId: input.clientMutationId ?? null,
      runResult: { ...result, status: RunStatus.SUCCESS },
      usageBase: toUsageBaseType(base),
      snapshot: day ? toSnapshotDayType(base.id, day) : null,
    };
  }
}
