import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { mirrorInput } from '../services/mirror/mirror.input.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { requireMonitoringConfig } from './monitoring-config.resolver.js';
import { RestoreRecordsInput, RestoreRecordsPayload } from './restore.inputs.js';
import { toRestoreType } from './types/restore.type.js';
import { parseInput } from './validate-input.js';

/** The REST write of restores, with the same body schema and error codes. */
@Resolver()
export class RestoreMutations {
  @Mutation(() => RestoreRecordsPayload, {
    description:
      'Restore records from the mirror (REST POST /monitoring-config/{id}/restores): written by a job through the account’s own connection, 10 records a request; forbidden when the connection cannot write records of the base, upstream_not_connected without one, conflict for a deleted record a restore already re-created (or is re-creating)',
  })
  async restoreRecords(
    @Arg('input', () => RestoreRecordsInput, { description: 'The config, the records and what to restore' }) input: RestoreRecordsInput,
    @Ctx() context: GraphqlContext,
  ): Promise<RestoreRecordsPayload> {
    const account = requireAccount(context);
    const { tableId, recordIds, at, fieldIds, dryRun } = input;
    const body = parseInput(mirrorInput.restore, { tableId, recordIds, at: at?.toISOString(), fieldIds, dryRun });
    const { id: configId } = await requireMonitoringConfig(context, input.configId);
    const restore = await context.services.mirrorRestores.create(account.id, configId, body);
    return { clientMutationId: input.clientMutationId ?? null, restore: toRestoreType(configId, restore) };
  }
}
