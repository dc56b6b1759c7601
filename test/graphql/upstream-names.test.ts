import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { createGraphql, type Graphql } from './support/graphql-client.js';

let app: TestApp;
let graphql: Graphql;

beforeAll(async () => {
  app = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9' });
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  graphql = createGraphql(app.url, app.apiKey);
});
afterAll(() => app?.close());

const WEBHOOK_NAMES = 'query { webhooks { nodes { restId tableId tableName columnId columnName } } }';

describe('names for the ids an item holds, read from the base’s schema now', () => {
  it('names a webhook’s table and field, follows a rename, and says null for a deleted field or an event of every table', async () => {
    const api = sandboxApi(app.url);
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.marketing);
    const table = (await api.createTable(baseId, { name: 'Names test', fields: [{ name: 'Title', type: 'singleLineText' }] })) as {
      id: string;
    };
    const field = (await api.createField(baseId, table.id, { name: 'Budget', type: 'number', options: { precision: 0 } })) as {
      id: string;
    };
    const create = async (input: Record<string, unknown>) => {
      const res = await app.http('POST', '/webhooks', { body: { baseId, webhookUrl: 'http://127.0.0.1:9/hook', ...input } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.webhook.webhookId as string;
    };
    const onField = await create({ event: 'record_update', tableId: table.id, columnId: field.id });
    const everyTable = await create({ event: 'table_create' });
    const names = async () => {
      const res = await graphql(WEBHOOK_NAMES);
      expect(res.errors).toBeUndefined();
      return Object.fromEntries(
        (res.data.webhooks.nodes as Array<{ restId: string; tableName: string | null; columnName: string | null }>).map((n) => [
          n.restId,
          [n.tableName, n.columnName],
        ]),
      );
    };
    expect(await names()).toMatchObject({ [onField]: ['Names test', 'Budget'], [everyTable]: [null, null] });

    await api.updateTable(baseId, table.id, { name: 'Spring campaigns' });
    await api.updateField(baseId, table.id, field.id, { name: 'Spend' });
    expect(await names()).toMatchObject({ [onField]: ['Spring campaigns', 'Spend'] });

    await api.deleteField(baseId, table.id, field.id);
    expect(await names()).toMatchObject({ [onField]: ['Spring campaigns', null] });
  });

  it('gives a monitoring config’s base tables and fields by their names now, null when the upstream cannot be read', async () => {
    const api = sandboxApi(app.url);
    const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    const monitoringBaseId = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    const created = await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const query = `query($id: ID!) { monitoringConfig(id: $id) { tables { restId name primaryFieldId fields { restId name } } } }`;
    const res = await graphql(query, { id: created.body.config.id });
    expect(res.errors).toBeUndefined();
    const upstream = await api.schema(baseId);
    expect(res.data.monitoringConfig.tables).toEqual(
      upstream.map((t) => ({
        restId: t.id,
        name: t.name,
        primaryFieldId: t.primaryFieldId,
        fields: t.fields.map((f) => ({ restId: f.id, name: f.name })),
      })),
    );

    app.running.sandbox!.faults.update({ errorRate: 1, errorStatus: 503 });
    try {
      const failing = await graphql(query, { id: created.body.config.id });
      expect(failing.errors).toBeUndefined();
      expect(failing.data.monitoringConfig.tables).toBeNull();
    } finally {
      app.running.sandbox!.faults.update({ errorRate: 0 });
    }
  });
});
