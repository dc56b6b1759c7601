import { z } from 'zod';
import { toQueryString } from './query-string.js';
import { listRecordPages } from './record-listing.js';
import {
  basesPageSchema,
  deletedRecordsSchema,
  fieldSchema,
  recordSchema,
  tableSchema,
  tablesSchema,
  whoamiSchema,
} from './response-schemas.js';
import { UpstreamTransport } from './transport.js';
import {
  createdWebhookSchema,
  emptyResponseSchema,
  refreshedWebhookSchema,
  webhookPayloadPageSchema,
  webhooksSchema,
} from './webhook-schemas.js';
import type { CreatedWebhook, ListWebhookPayloadsOptions, NewWebhook, UpstreamWebhook, WebhookPayloadPage } from './webhook-types.js';
import type {
  ListRecordsOptions,
  NewField,
  NewRecord,
  NewTable,
  RecordListPage,
  RecordUpdate,
  UpstreamBase,
  UpstreamClientOptions,
  UpstreamField,
  UpstreamRecord,
  UpstreamStats,
  UpstreamTable,
  WriteRecordsOptions,
} from './types.js';

/** The platform's cap on records per create, update or delete request. */
export const MAX_RECORDS_PER_WRITE = 10;

const recordsSchema = z.object({ records: z.array(recordSchema) });

/** The platform's Web API, every call rate-limited per base and retried by one policy (see transport.ts). */
export class UpstreamClient {
  private readonly transport: UpstreamTransport;

  constructor(options: UpstreamClientOptions) {
    this.transport = new UpstreamTransport(options);
  }

  get stats(): UpstreamStats {
    return this.transport.stats;
  }

  /** Whose per-user budget the client's requests spend: the upstream user id, or `token:<fingerprint>`. */
  get userKey(): string {
    return this.transport.userKey;
  }

  /** Who the token acts for (no scope needed): the connection's check and its upstream user id. */
  whoami(): Promise<{ id: string; email?: string; scopes?: string[] }> {
    return this.transport.send({ method: 'GET', path: '/meta/whoami', schema: whoamiSchema });
  }

  async listBases(): Promise<UpstreamBase[]> {
    const bases: UpstreamBase[] = [];
    let offset: string | undefined;
    do {
      const query = toQueryString({ offset });
      const page = await this.transport.send({ method: 'GET', path: '/meta/bases', query, schema: basesPageSchema });
      bases.push(...page.bases);
      offset = page.offset;
    } while (offset !== undefined);
    return bases;
  }

  async getBaseSchema(baseId: string, signal?: AbortSignal): Promise<UpstreamTable[]> {
    const path = `/meta/bases/${encodeURIComponent(baseId)}/tables`;
    const { tables } = await this.transport.send({ method: 'GET', path, baseId, schema: tablesSchema, signal });
    return tables;
  }

  /** See record-listing.ts for the `restarted` contract. */
  listRecordPages(
    baseId: string,
    tableIdOrName: string,
    options: ListRecordsOptions = {},
    signal?: AbortSignal,
  ): AsyncGenerator<RecordListPage> {
    return listRecordPages(this.transport, baseId, tableIdOrName, options, signal);
  }

  /** Chunks go one after another, so on failure exactly the chunks before the failing one were written. */
  async createRecords(
    baseId: string,
    tableId: string,
    records: NewRecord[],
    options: WriteRecordsOptions = {},
    signal?: AbortSignal,
  ): Promise<UpstreamRecord[]> {
    return this.writeInChunks(records, async (chunk) => {
      const body = { records: chunk.map(({ fields }) => ({ fields })), ...options };
      const path = recordsPath(baseId, tableId);
      const sent = { method: 'POST' as const, path, body, baseId, schema: recordsSchema, idempotent: false, signal };
      return (await this.transport.send(sent)).records;
    });
  }

  /** PATCH: only the fields sent change. */
  async updateRecords(
    baseId: string,
    tableId: string,
    records: RecordUpdate[],
    options: WriteRecordsOptions = {},
  ): Promise<UpstreamRecord[]> {
    return this.writeInChunks(records, async (chunk) => {
      const body = { records: chunk.map(({ id, fields }) => ({ id, fields })), ...options };
      const path = recordsPath(baseId, tableId);
      return (await this.transport.send({ method: 'PATCH', path, body, baseId, schema: recordsSchema })).records;
    });
  }

  /** Returns the ids the upstream confirmed as deleted. */
  async deleteRecords(baseId: string, tableId: string, ids: string[]): Promise<string[]> {
    return this.writeInChunks(ids, async (chunk) => {
      const query = toQueryString({ records: chunk });
      const path = recordsPath(baseId, tableId);
      const sent = { method: 'DELETE' as const, path, query, baseId, schema: deletedRecordsSchema };
      const { records } = await this.transport.send(sent);
      return records.filter((record) => record.deleted).map((record) => record.id);
    });
  }

  async createTable(baseId: string, table: NewTable): Promise<UpstreamTable> {
    const path = `/meta/bases/${encodeURIComponent(baseId)}/tables`;
    return this.transport.send({ method: 'POST', path, body: table, baseId, schema: tableSchema, idempotent: false });
  }

  async createField(baseId: string, tableId: string, field: NewField): Promise<UpstreamField> {
    const path = `/meta/bases/${encodeURIComponent(baseId)}/tables/${encodeURIComponent(tableId)}/fields`;
    return this.transport.send({ method: 'POST', path, body: field, baseId, schema: fieldSchema, idempotent: false });
  }

  /** Not retried after a lost answer: the webhook may exist already (list to find it). */
  async createWebhook(baseId: string, webhook: NewWebhook): Promise<CreatedWebhook> {
    const path = webhooksPath(baseId);
    return this.transport.send({ method: 'POST', path, body: webhook, baseId, schema: createdWebhookSchema, idempotent: false });
  }

  async listWebhooks(baseId: string, signal?: AbortSignal): Promise<UpstreamWebhook[]> {
    const { webhooks } = await this.transport.send({ method: 'GET', path: webhooksPath(baseId), baseId, schema: webhooksSchema, signal });
    return webhooks;
  }

  async deleteWebhook(baseId: string, webhookId: string): Promise<void> {
    const path = webhooksPath(baseId, webhookId);
    await this.transport.send({ method: 'DELETE', path, baseId, schema: emptyResponseSchema });
  }

  /** Pushes expiry to 7 days from now; only an active webhook can be refreshed. */
  async refreshWebhook(baseId: string, webhookId: string): Promise<{ expirationTime: string | null }> {
    const path = `${webhooksPath(baseId, webhookId)}/refresh`;
    return this.transport.send({ method: 'POST', path, baseId, schema: refreshedWebhookSchema });
  }

  async setWebhookNotifications(baseId: string, webhookId: string, enable: boolean): Promise<void> {
    const path = `${webhooksPath(baseId, webhookId)}/enableNotifications`;
    await this.transport.send({ method: 'POST', path, body: { enable }, baseId, schema: emptyResponseSchema });
  }

  /** One page; listing an active webhook's payloads also pushes its expiry to 7 days from now. */
  async listWebhookPayloads(
    baseId: string,
    webhookId: string,
    options: ListWebhookPayloadsOptions = {},
    signal?: AbortSignal,
  ): Promise<WebhookPayloadPage> {
    const path = `${webhooksPath(baseId, webhookId)}/payloads`;
    const query = toQueryString({ cursor: options.cursor, limit: options.limit });
    return this.transport.send({ method: 'GET', path, query, baseId, schema: webhookPayloadPageSchema, signal });
  }

  private async writeInChunks<In, Out>(items: In[], write: (chunk: In[]) => Promise<Out[]>): Promise<Out[]> {
    const results: Out[] = [];
    for (let start = 0; start < items.length; start += MAX_RECORDS_PER_WRITE) {
      results.push(...(await write(items.slice(start, start + MAX_RECORDS_PER_WRITE))));
    }
    return results;
  }
}

function recordsPath(baseId: string, tableId: string): string {
  return `/${encodeURIComponent(baseId)}/${encodeURIComponent(tableId)}`;
}

function webhooksPath(baseId: string, webhookId?: string): string {
  const path = `/bases/${encodeURIComponent(baseId)}/webhooks`;
  return webhookId === undefined ? path : `${path}/${encodeURIComponent(webhookId)}`;
}
