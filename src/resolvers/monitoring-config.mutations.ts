import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { monitoringConfigInput } from '../services/monitoring-config.input.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { restIdToDelete } from './require-owned.js';
import {
  CreateMonitoringConfigInput,
  CreateMonitoringConfigPayload,
  DeleteMonitoringConfigInput,
  DeleteMonitoringConfigPayload,
  UpdateMonitoringConfigInput,
  UpdateMonitoringConfigPayload,
} from './monitoring-config.inputs.js';
import { requireMonitoringConfig } from './monitoring-config.resolver.js';
import { accountListEdge } from './relay/account-lists.js';
import { toGlobalId } from './relay/global-id.js';
import { toMonitoringConfigType } from './types/monitoring-config.type.js';
import { parseInput } from './validate-input.js';

/** The REST writes of monitoring configs, with the same body schemas and error codes. */
@Resolver()
export class MonitoringConfigMutations {
  @Mutation(() => CreateMonitoringConfigPayload, {
    description: 'Log a base’s changes into a Changes table (REST POST /monitoring-config)',
  })
  async createMonitoringConfig(
    @Arg('input', () => CreateMonitoringConfigInput, { description: 'The base to log and where to log it' })
    input: CreateMonitoringConfigInput,
    @Ctx() context: GraphqlContext,
  ): Promise<CreateMonitoringConfigPayload> {
    const account = requireAccount(context);
    const { baseId, monitoringBaseId, monitoringTableId, scope, timezone, workspaceId } = input;
    const body = parseInput(monitoringConfigInput.create, { baseId, monitoringBaseId, monitoringTableId, scope, timezone, workspaceId });
    const monitoringConfig = toMonitoringConfigType(await context.services.monitoringConfigs.create(account.id, body));
    return {
      clientMutationId: input.clientMutationId ?? null,
      monitoringConfig,
      monitoringConfigEdge: accountListEdge(context.services.cursors, 'monitoring-configs', account.id, monitoringConfig),
    };
  }

  @Mutation(() => UpdateMonitoringConfigPayload, { description: 'Change scope or zone (REST PATCH /monitoring-config/{id})' })
  async updateMonitoringConfig(
    @Arg('input', () => UpdateMonitoringConfigInput, { description: 'The config and what to change' }) input: UpdateMonitoringConfigInput,
    @Ctx() context: GraphqlContext,
  ): Promise<UpdateMonitoringConfigPayload> {
    const account = requireAccount(context);
    const body = parseInput(monitoringConfigInput.update, { scope: input.scope, timezone: input.timezone });
    const { id } = await requireMonitoringConfig(context, input.id);
    const config = await context.services.monitoringConfigs.update(account.id, id, body);
    context.loaders.monitoringConfig.clear(id).prime(id, config);
    return { clientMutationId: input.clientMutationId ?? null, monitoringConfig: toMonitoringConfigType(config) };
  }

  @Mutation(() => DeleteMonitoringConfigPayload, {
    description: 'Stop logging; the logged changes go, the Changes table stays (REST DELETE /monitoring-config/{id})',
  })
  async deleteMonitoringConfig(
    @Arg('input', () => DeleteMonitoringConfigInput, { description: 'The config to delete' }) input: DeleteMonitoringConfigInput,
    @Ctx() context: GraphqlContext,
  ): Promise<DeleteMonitoringConfigPayload> {
    const account = requireAccount(context);
    const id = restIdToDelete(input.id, 'MonitoringConfig', 'Monitoring config');
    await context.services.monitoringConfigs.remove(account.id, id);
    context.loaders.monitoringConfig.clear(id);
    const deletedId = toGlobalId('MonitoringConfig', id);
    return { clientMutationId: input.clientMutationId ?? null, deletedId, deletedMonitoringConfigId: deletedId };
  }
}
