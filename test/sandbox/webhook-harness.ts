import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NewWebhook, WebhookPayload, WebhookPayloadPage } from '../../src/upstream/webhook-types.js';
import type { SandboxField, SandboxTable } from '../../src/sandbox/index.js';
import type { SandboxHarness } from './sandbox-harness.js';

/** A clock the test moves by hand. */
export function manualClock(start = Date.parse('2026-03-02T09:00:00.000Z')) {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

export interface HooksBase {
  baseId: string;
  products: SandboxTable;
  suppliers: SandboxTable;
  /** Field of Products by name. */
  field(name: string): SandboxField;
  /** Records path of a table for the sandbox harness. */
  path(table: SandboxTable): string;
}

/** Products (every convertible field type) and Suppliers, linked; the link field is added through the store. */
export function addHooksBase(harness: SandboxHarness, name = 'Hooks'): HooksBase {
  const { store } = harness.sandbox;
  const base = store.addBase({
    name,
    tables: [
      {
        name: 'Suppliers',
        fields: [{ name: 'Name', type: 'singleLineText' }],
        records: [{ Name: 'Nordwind' }, { Name: 'Bluepeak' }],
      },
      {
        name: 'Products',
        fields: [
          { name: 'Name', type: 'singleLineText' },
          { name: 'Price', type: 'number', options: { precision: 2 } },
          { name: 'Status', type: 'singleSelect', options: { choices: [{ name: 'Active', color: 'greenBright' }, { name: 'Retired' }] } },
          { name: 'Tags', type: 'multipleSelects', options: { choices: [{ name: 'new' }, { name: 'sale', color: 'redBright' }] } },
          { name: 'Owner', type: 'singleCollaborator' },
          { name: 'Photos', type: 'multipleAttachments' },
          { name: 'Notes', type: 'multilineText' },
        ],
      },
    ],
  });
  const [suppliers, products] = base.tables;
  store.createField(base.id, products.id, { name: 'Supplier', type: 'multipleRecordLinks', options: { linkedTableId: suppliers.id } });
  return {
    baseId: base.id,
    products,
    suppliers,
    field: (fieldName) => {
      const field = products.fields.find((candidate) => candidate.name === fieldName);
      if (!field) throw new Error(`No field ${fieldName}`);
      return field;
    },
    path: (table) => `/v0/${base.id}/${table.id}`,
  };
}

export function hooksPath(baseId: string, webhookId?: string): string {
  return `/v0/bases/${baseId}/webhooks${webhookId === undefined ? '' : `/${webhookId}`}`;
}

export async function createHook(harness: SandboxHarness, baseId: string, webhook: NewWebhook) {
  const response = await harness.call<{ id: string; macSecretBase64: string; expirationTime: string }>('POST', hooksPath(baseId), {
    body: webhook,
  });
  if (response.status !== 200) throw new Error(`Create webhook failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function payloadsOf(harness: SandboxHarness, baseId: string, webhookId: string, query = ''): Promise<WebhookPayloadPage> {
  const response = await harness.call<WebhookPayloadPage>('GET', `${hooksPath(baseId, webhookId)}/payloads${query}`);
  if (response.status !== 200) throw new Error(`List payloads failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export async function onlyPayload(harness: SandboxHarness, baseId: string, webhookId: string): Promise<WebhookPayload> {
  const { payloads } = await payloadsOf(harness, baseId, webhookId);
  if (payloads.length !== 1) throw new Error(`Expected one payload, got ${JSON.stringify(payloads)}`);
  return payloads[0];
}

export interface ReceivedPing {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
}

export interface PingReceiver {
  url: string;
  pings: ReceivedPing[];
  /** Resolves once `count` pings have arrived in total. */
  waitFor(count: number): Promise<ReceivedPing[]>;
  close(): Promise<void>;
}

/** A real HTTP server; `statusFor(n)` picks the status of the n-th ping (0-based), 204 by default. */
export async function startPingReceiver(statusFor: (index: number) => number = () => 204): Promise<PingReceiver> {
  const pings: ReceivedPing[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = pings.length;
      pings.push({ headers: req.headers, rawBody: Buffer.concat(chunks) });
      res.statusCode = statusFor(index);
      res.end();
      for (const waiter of waiters.filter((candidate) => pings.length >= candidate.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/airtable-ping`,
    pings,
    waitFor: (count) =>
      pings.length >= count ? Promise.resolve(pings) : new Promise((resolve) => waiters.push({ count, resolve: () => resolve(pings) })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
