import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookEventBody } from '../../../src/services/webhooks/event-body.js';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: WebhookEventBody;
  receivedAt: number;
  /** The sender's port: which process sent it (processes.ts, processOfLocalPort). */
  remotePort: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering (a slow receiver). */
  delayMs?: number;
}

/**
 * A real HTTP receiver on a loopback port. `answer` decides each response (default 200); it records every request,
 * and how many were in flight at once, overall and per key (e.g. per record).
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received, index: number) => Answer = () => ({ status: 200 });
  inFlight = 0;
  maxInFlight = 0;
  readonly maxInFlightByKey = new Map<string, number>();
  keyOf: (request: Received) => string = () => '';
  private readonly inFlightByKey = new Map<string, number>();
  private server: Server | undefined;
  port = 0;

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        // The service always sends JSON: a body that is not fails the test here.
        const json = JSON.parse(body) as WebhookEventBody;
        const request: Received = {
          path: req.url ?? '',
          headers: req.headers,
          body,
          json,
          receivedAt: Date.now(),
          remotePort: req.socket.remotePort ?? 0,
        };
        const index = this.received.push(request) - 1;
        const key = this.keyOf(request);
        this.track(key, 1);
        const answer = this.answer(request, index);
        setTimeout(() => {
          this.track(key, -1);
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
          res.end('ok');
        }, answer.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Requests to one path (each test uses its own). */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async waitFor(path: string, count: number, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.at(path);
  }

  /** Stops listening (an outage: connections are refused); `start(port)` again to come back. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private track(key: string, delta: number): void {
    this.inFlight += delta;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const now = (this.inFlightByKey.get(key) ?? 0) + delta;
    this.inFlightByKey.set(key, now);
    this.maxInFlightByKey.set(key, Math.max(this.maxInFlightByKey.get(key) ?? 0, now));
  }
}
