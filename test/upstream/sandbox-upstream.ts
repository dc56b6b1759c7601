import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export const SANDBOX_TOKEN = 'patSandboxToken.test';

export interface SeenCall {
  method: string;
  /** Path and query below the mount point, as sent. */
  url: string;
  at: number;
  /** Set once the response is sent. */
  status?: number;
}

export interface SandboxUpstream {
  sandbox: Sandbox;
  /** What the client passes as `baseUrl`. */
  baseUrl: string;
  /** Every request that reached the sandbox, control calls included. */
  calls: SeenCall[];
  expireIterators(): Promise<void>;
  close(): Promise<void>;
}

/** The real sandbox router in an express app on an ephemeral port, with a log of what arrived. */
export async function startSandboxUpstream(options: Partial<SandboxOptions> = {}): Promise<SandboxUpstream> {
  const sandbox = createSandbox({ token: SANDBOX_TOKEN, demo: false, ...options });
  const calls: SeenCall[] = [];
  const app = express();
  app.use('/sandbox/airtable', (req, res, next) => {
    const call: SeenCall = { method: req.method, url: req.url, at: Date.now() };
    calls.push(call);
    res.on('finish', () => (call.status = res.statusCode));
    next();
  });
  app.use('/sandbox/airtable', sandbox.router);
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/sandbox/airtable`;
  return {
    sandbox,
    baseUrl,
    calls,
    async expireIterators() {
      const response = await fetch(`${baseUrl}/_control/expire-iterators`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${SANDBOX_TOKEN}` },
      });
      if (!response.ok) throw new Error(`expire-iterators answered ${response.status}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
