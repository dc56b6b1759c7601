import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { Receiver } from './support/receiver.js';
import { verifyStandardWebhook } from './support/standard-webhooks.js';
import { createWebhook, deliveryEnv } from './support/webhook-support.js';

/** Changes made through the sandbox's API reach the receiver: upstream ping → ingestion → delivery. */
describe('webhook forwarding end to end', () => {
  let app: TestApp;
  let receiver: Receiver;
  let api: SandboxApi;
  let baseId: string;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    app = await startTestApp(deliveryEnv(receiver.port, { AUDIT_POLL_INTERVAL_SECONDS: '1' }));
    app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
    api = sandboxApi(app.url);
    // A base with webhooks and no monitoring config: it is watched for the webhooks alone.
    baseId = await upstreamBaseId(app.http, DEMO_BASES.marketing);
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
  });

  it('forwards a record update made upstream, signed, with who made it and the values before and after', async () => {
    const [table] = await api.schema(baseId);
    const primary = table!.fields.find((f) => f.id === table!.primaryFieldId)!;
    const { secret } = await createWebhook(app.http, {
      baseId,
      event: 'record_update',
      tableId: table!.id,
      columnId: primary.id,
      webhookUrl: receiver.url('/e2e-update'),
    });
    const { records } = await api.listRecords(baseId, table!.id, '?pageSize=1');
    const record = records[0] as { id: string; fields: Record<string, unknown> };
    await api.updateRecords(baseId, table!.id, [{ id: record.id, fields: { [primary.name]: 'Forwarded' } }], {
      source: 'client',
      email: 'eve@example.com',
      name: 'Eve',
    });

    const [request] = await receiver.waitFor('/e2e-update', 1);
    expect(request, 'the upstream change was not delivered').toBeDefined();
    expect(verifyStandardWebhook(secret, request!.headers, request!.body)).toBe(true);
    expect(request!.json).toMatchObject({
      type: 'record_update',
      data: {
        baseId,
        tableId: table!.id,
        tableName: table!.name,
        recordId: record.id,
        fieldIds: expect.arrayContaining([primary.id]),
        source: 'client',
        user: { email: 'eve@example.com', name: 'Eve' },
        current: { [primary.id]: 'Forwarded' },
      },
    });
    expect(request!.json.data.previous?.[primary.id]).toEqual(record.fields[primary.name]);
  });

  it('forwards a table created upstream to a table_create webhook', async () => {
    await createWebhook(app.http, { baseId, event: 'table_create', webhookUrl: receiver.url('/e2e-table') });
    const created = await api.createTable(baseId, { name: 'Forwarded Table', fields: [{ name: 'Title', type: 'singleLineText' }] });
    const [request] = await receiver.waitFor('/e2e-table', 1);
    expect(request?.json).toMatchObject({ type: 'table_create', data: { baseId, tableId: created.id, recordId: null } });
  });
});
