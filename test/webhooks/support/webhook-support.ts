import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ChangeEvent, ChangeEventType } from '../../../src/services/audit/change-event.js';
import type { WebhookEventBody } from '../../../src/services/webhooks/event-body.js';
import { DEMO_BASES, upstreamBaseId } from '../../support/factories.js';
import type { Http } from '../../support/http.js';
import type { TestApp } from '../../support/test-app.js';

/** Polls until `done` or the time-out: the audit tests' helper. */
export { eventually } from '../../support/eventually.js';

/** Jobs (and so the delivery dispatcher) run, with a retry schedule and windows short enough for tests. */
export function deliveryEnv(receiverPort: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SCHEDULER_RUN_JOBS: 'true',
    JOBS_PROCESS_EVERY_MS: '50',
    WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiverPort}`,
    WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms,800ms,1600ms',
    WEBHOOK_TIMEOUT: '2s',
    WEBHOOK_COALESCE_WINDOW: '400ms',
    WEBHOOK_COALESCE_MAX_WAIT: '3s',
    ...extra,
  };
}

export interface DemoTable {
  baseId: string;
  tableId: string;
  fieldIds: string[];
}

/** A table of a demo base of the sandbox upstream, through the helper endpoints. */
export async function demoTable(http: Http, baseName: string = DEMO_BASES.catalog): Promise<DemoTable> {
  const baseId = await upstreamBaseId(http, baseName);
  const res = await http('GET', `/airtable/bases/${baseId}/tables`);
  const table = res.body.tables[0] as { id: string; fields: Array<{ id: string }> };
  return { baseId, tableId: table.id, fieldIds: table.fields.map((f) => f.id) };
}

export interface CreatedWebhook {
  webhook: {
    webhookId: string;
    baseId: string;
    event: string;
    tableId: string;
    columnId: string | null;
    webhookUrl: string;
    coalesceUpdates: boolean;
    createdAt: string;
    updatedAt: string;
  };
  secret: string;
}

export async function createWebhook(http: Http, body: Record<string, unknown>): Promise<CreatedWebhook> {
  const res = await http('POST', '/webhooks', { body });
  if (res.status !== 201) throw new Error(`creating a webhook failed: ${res.status} ${res.text}`);
  return res.body as CreatedWebhook;
}

let position = 0;

/** A change as the ingestion pipeline hands it to sinks. */
export function change(
  eventType: ChangeEventType,
  fields: Partial<Omit<ChangeEvent, 'eventType' | 'kind'>> & { tableId: string },
): ChangeEvent {
  return {
    eventType,
    kind: eventType.startsWith('record_') ? 'record' : 'schema',
    occurredAt: new Date(),
    tableName: 'Products',
    recordId: null,
    fieldIds: [],
    source: 'client',
    userEmail: 'ada@example.com',
    userName: 'Ada',
    before: null,
    after: null,
    position: `test:${++position}:0`,
    ...fields,
  };
}

export const recordId = () => `rec${randomUUID().replace(/-/g, '').slice(0, 14)}`;

/** Hands changes to the webhook sink in a transaction, as ingestion does, then tells it the batch committed. */
export async function feed(app: Pick<TestApp, 'running'>, accountId: string, baseId: string, changes: ChangeEvent[]): Promise<void> {
  const { dataSource, webhookSink } = app.running.services;
  await dataSource.transaction((manager) =>
    webhookSink.accept(
      manager,
      { accountId, baseId, pausedAccounts: new Set(), webhookId: 'achSupportFeed', missedPayloads: false },
      changes,
    ),
  );
  webhookSink.committed();
}

export interface DeliveryJson {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  eventType: string;
  changeCount: number;
  nextAttemptAt: string | null;
  payload: WebhookEventBody;
  attempts: Array<{ attemptedAt: string; statusCode: number | null; durationMs: number; error: string | null }>;
}

/** Every delivery of a webhook through its log, newest first. */
export async function allDeliveries(http: Http, webhookId: string): Promise<DeliveryJson[]> {
  const deliveries: DeliveryJson[] = [];
  let cursor: string | undefined;
  do {
    const res = await http('GET', `/webhooks/${webhookId}/deliveries?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    deliveries.push(...res.body.deliveries);
    cursor = res.body.nextCursor;
  } while (cursor);
  return deliveries;
}
