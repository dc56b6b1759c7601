import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const TOKEN = 'sandbox-test-token';

export interface RecordBody {
  id: string;
  createdTime: string;
  fields: Record<string, unknown>;
}

export interface ListBody {
  records: RecordBody[];
  offset?: string;
}

export interface ErrorBody {
  error: { type: string; message?: string };
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** null sends no Authorization header. */
  token?: string | null;
}

export interface CallResult<T> {
  status: number;
  body: T;
}

export interface SandboxHarness {
  sandbox: Sandbox;
  /** The sandbox's mount point, e.g. http://127.0.0.1:1234/sandbox/airtable. */
  root: string;
  call<T = ErrorBody>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  close(): Promise<void>;
}

/** A real HTTP server on an ephemeral port; the rate limit is off unless a test sets it. */
export async function startSandbox(options: Partial<SandboxOptions> = {}): Promise<SandboxHarness> {
  const sandbox = createSandbox({ token: TOKEN, rateLimitPerSecond: 0, ...options });
  const app = express();
  app.use('/sandbox/airtable', sandbox.router);
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sandbox/airtable`;
  return {
    sandbox,
    root,
    async call<T>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
      const token = options.token === undefined ? TOKEN : options.token;
      const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      const response = await fetch(root + path, {
        method,
        headers: {
          ...(token === null ? {} : { authorization: `Bearer ${token}` }),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body: payload,
      });
      const text = await response.text();
      return { status: response.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function baseIdByName(sandbox: Pick<Sandbox, 'store'>, name: string): string {
  const base = sandbox.store.listBases().find((candidate) => candidate.name === name);
  if (!base) throw new Error(`No base named ${name}`);
  return base.id;
}

export function tableByName(sandbox: Sandbox, baseId: string, name: string) {
  const table = sandbox.store.getTable(baseId, name);
  if (!table) throw new Error(`No table named ${name}`);
  return table;
}

export async function listAll(harness: SandboxHarness, path: string, query = ''): Promise<{ records: RecordBody[]; offsets: string[] }> {
  const records: RecordBody[] = [];
  const offsets: string[] = [];
  let offset: string | undefined;
  do {
    const separator = query === '' && offset === undefined ? '' : '?';
    const params = [query, offset === undefined ? '' : `offset=${encodeURIComponent(offset)}`].filter(Boolean).join('&');
    const page = await harness.call<ListBody>('GET', `${path}${separator}${params}`);
    if (page.status !== 200) throw new Error(`Listing failed: ${page.status} ${JSON.stringify(page.body)}`);
    records.push(...page.body.records);
    offset = page.body.offset;
    if (offset !== undefined) offsets.push(offset);
  } while (offset !== undefined);
  return { records, offsets };
}
