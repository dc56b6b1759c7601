import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { UpstreamTable } from '../upstream/types.js';
import type { GraphqlContext } from './context.js';
import type { Loaders } from './loaders.js';
import { AirtableTableType, toAirtableTableType } from './types/airtable.type.js';
import { MonitoringConfigType } from './types/monitoring-config.type.js';
import { WebhookType } from './types/webhook.type.js';

/**
 * The names of what an item names by id, read from the base's schema as the account's connection sees it now (one
 * schema read per base and operation, shared with airtableTables), so a renamed table or field shows its new name.
 * Null where the schema cannot be read now (the upstream failing, the base no longer seen): the item still answers,
 * and the page falls back to the ids.
 */
async function currentSchema(context: GraphqlContext, kind: keyof Loaders['lost'], item: { restId: string; baseId: string }) {
  try {
    if (await context.loaders.lost[kind].load({ id: item.restId, baseId: item.baseId })) return null;
    return await context.loaders.airtableTables.load(item.baseId);
  } catch {
    return null;
  }
}

const tableOf = (tables: UpstreamTable[] | null, tableId: string) => tables?.find((table) => table.id === tableId);

@Resolver(() => MonitoringConfigType)
export class MonitoringConfigNamesResolver {
  @FieldResolver(() => [AirtableTableType], {
    nullable: true,
    description:
      'The monitored base’s tables and fields as they are named now, to show names for the ids of its changes (a field or table missing here was deleted or renamed away); null when the schema cannot be read now',
  })
  async tables(@Root() config: MonitoringConfigType, @Ctx() context: GraphqlContext): Promise<AirtableTableType[] | null> {
    const tables = await currentSchema(context, 'monitoringConfig', config);
    return tables?.map((table) => toAirtableTableType(config.baseId, table)) ?? null;
  }
}

@Resolver(() => WebhookType)
export class WebhookNamesResolver {
  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The name of the watched table now; null for events of every table (TABLE_*, USAGE_THRESHOLD) and when it is unknown (deleted, or the schema cannot be read now)',
  })
  async tableName(@Root() webhook: WebhookType, @Ctx() context: GraphqlContext): Promise<string | null> {
    if (!webhook.tableId) return null;
    return tableOf(await currentSchema(context, 'webhook', webhook), webhook.tableId)?.name ?? null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      'The name of the watched field (columnId) now; null without one, and when it is unknown (deleted, or the schema cannot be read now)',
  })
  async columnName(@Root() webhook: WebhookType, @Ctx() context: GraphqlContext): Promise<string | null> {
    if (!webhook.columnId || !webhook.tableId) return null;
    const table = tableOf(await currentSchema(context, 'webhook', webhook), webhook.tableId);
    return table?.fields.find((field) => field.id === webhook.columnId)?.name ?? null;
  }
}
