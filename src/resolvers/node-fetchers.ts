import { isValidDay } from '../services/calendar.js';
import { requireAccount, type GraphqlContext } from './context.js';
import { orNull } from './loaders.js';
import { fromGlobalId } from './relay/global-id.js';
import type { Node } from './types/node.type.js';
import { toAccountType } from './types/account.type.js';
import { toApiKeyType } from './types/api-key.type.js';
import { toAirtableBaseType, toAirtableTableType } from './types/airtable.type.js';
import { toChangeType } from './types/change.type.js';
import { toMonitoringConfigType } from './types/monitoring-config.type.js';
import { toRestoreType } from './types/restore.type.js';
import { toSnapshotDayType } from './types/snapshot.type.js';
import { toUsageBaseType } from './types/usage-base.type.js';
import { toUsageAlertType } from './types/usage-alert.type.js';
import { toWebhookDeliveryType, toWebhookType } from './types/webhook.type.js';

type NodeFetcher = (context: GraphqlContext, parts: string[]) => Promise<Node | null>;

/**
 * How each node type is found again from the parts of its global id. Every fetcher answers null for what is missing
 * or belongs to another account, so node() cannot tell the two apart. New node types add a line here.
 */
const fetchers: Record<string, NodeFetcher> = {
  Account: async (context, [id]) => {
    const account = requireAccount(context);
    return id === account.id ? toAccountType(await context.services.accounts.require(id)) : null;
  },
  ApiKey: async (context, [id]) => {
    const key = (await context.services.accounts.activeKeys(requireAccount(context).id)).find((k) => k.id === id);
    return key ? toApiKeyType(key) : null;
  },
  UsageBase: async (context, [id]) => {
    const base = await context.loaders.usageBase.load(id);
    return base && toUsageBaseType(base);
  },
  SnapshotDay: async (context, [usageBaseId, date]) => {
    if (!date || !isValidDay(date)) return null;
    const base = await context.loaders.usageBase.load(usageBaseId);
    if (!base) return null;
    const [day] = await context.services.snapshots.range(base, { from: date, to: date, limit: 1, order: 'newest' });
    return day ? toSnapshotDayType(base.id, day) : null;
  },
  AirtableBase: async (context, [baseId]) => {
    const base = (await context.loaders.airtableBases()).find((b) => b.id === baseId);
    return base ? toAirtableBaseType(base) : null;
  },
  AirtableTable: async (context, [baseId, tableId]) => {
    const table = (await context.loaders.airtableTables.load(baseId))?.find((t) => t.id === tableId);
    return table ? toAirtableTableType(baseId, table) : null;
  },
  AirtableField: async (context, [baseId, tableId, fieldId]) => {
    const table = (await context.loaders.airtableTables.load(baseId))?.find((t) => t.id === tableId);
    return table ? (toAirtableTableType(baseId, table).fields.find((f) => f.restId === fieldId) ?? null) : null;
  },
  MonitoringConfig: async (context, [id]) => {
    const config = await context.loaders.monitoringConfig.load(id);
    return config && toMonitoringConfigType(config);
  },
  Change: async (context, [configId, id]) => {
    if (!id || !(await context.loaders.monitoringConfig.load(configId))) return null;
    const change = await context.loaders.change.load({ configId, id });
    return change && toChangeType(configId, change);
  },
  // Active webhooks only: a deleted one is gone from GraphQL as from GET /webhooks.
  Webhook: async (context, [id]) => {
    const webhook = await context.loaders.webhook.load(id);
    return webhook && toWebhookType(webhook);
  },
  // A delivery of an active webhook, as Webhook.deliveries lists them.
  WebhookDelivery: async (context, [webhookId, id]) => {
    if (!id || !(await context.loaders.webhook.load(webhookId))) return null;
    const delivery = await orNull(context.services.webhookDeliveries.get(requireAccount(context).id, webhookId, id));
    return delivery && toWebhookDeliveryType(webhookId, delivery);
  },
  // A restore through its config, as REST GET /monitoring-config/{id}/restores/{restoreId} (a dry run is not kept).
  Restore: async (context, [configId, id]) => {
    if (!id || !(await context.loaders.monitoringConfig.load(configId))) return null;
    const restore = await orNull(context.services.mirrorRestores.get(requireAccount(context).id, configId, id));
    return restore && toRestoreType(configId, restore);
  },
  UsageAlert: async (context, [id]) => {
    const alert = await orNull(context.services.usageAlerts.get(requireAccount(context).id, id));
    return alert && toUsageAlertType(alert);
  },
};

/** The object behind a global id, or null (unknown type, malformed, missing, or another account's). */
export async function fetchNode(context: GraphqlContext, id: string): Promise<Node | null> {
  requireAccount(context);
  const decoded = fromGlobalId(id);
  const fetcher = decoded && Object.hasOwn(fetchers, decoded.type) ? fetchers[decoded.type] : undefined;
  return fetcher ? fetcher(context, decoded!.parts) : null;
}
