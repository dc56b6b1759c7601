import type { ChangeEvent } from '../../src/services/audit/change-event.js';
import type { DeliveryView } from '../../src/services/webhooks/delivery-log.service.js';
import { deliveryLogInput } from '../../src/services/webhooks/delivery-log.input.js';
import { webhookInput } from '../../src/services/webhooks/webhook.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import type { TestServices } from '../support/test-services.js';

export { change, deliveryEnv, recordId } from '../webhooks/support/webhook-support.js';

export interface DemoTable {
  baseId: string;
  tableId: string;
  fieldIds: string[];
}

/** The first table of a demo base of the sandbox. */
export function demoTable(t: TestServices, baseName: string = DEMO_BASES.catalog): DemoTable {
  const baseId = t.baseId(baseName);
  const table = t.sandbox.store.getBase(baseId)!.tables[0]!;
  return { baseId, tableId: table.id, fieldIds: table.fields.map((f) => f.id) };
}

/** WebhookService.create with its input parsed by the route's own schema. */
export const createWebhook = (t: TestServices, accountId: string, input: Record<string, unknown>) =>
  t.services.webhooks.create(accountId, parsed(webhookInput.create, input));

/** Hands changes to the webhook sink in a transaction, as ingestion does, then tells it the batch committed. */
export async function feed(t: TestServices, accountId: string, baseId: string, changes: ChangeEvent[]): Promise<void> {
  const { dataSource, webhookSink } = t.services;
  await dataSource.transaction((manager) =>
    webhookSink.accept(
      manager,
      { accountId, baseId, pausedAccounts: new Set(), webhookId: 'achSupportFeed', missedPayloads: false },
      changes,
    ),
  );
  webhookSink.committed();
}

/** Every delivery of a webhook through its log, newest first. */
export async function allDeliveries(t: TestServices, accountId: string, webhookId: string): Promise<DeliveryView[]> {
  const deliveries: DeliveryView[] = [];
  let cursor: string | undefined;
  do {
    const page = await t.services.webhookDeliveries.list(
      accountId,
      webhookId,
      parsed(deliveryLogInput.list, { limit: '100', ...(cursor ? { cursor } : {}) }),
    );
    deliveries.push(...page.deliveries);
    cursor = page.nextCursor;
  } while (cursor);
  return deliveries;
}

export { eventually } from '../support/eventually.js';
