import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './url-guard.js';

/** What one POST came to: the answer's status (null when none came), its duration, and why it failed. */
export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  /** Null for a 2xx; else a short reason safe to show to the webhook's owner. */
  error: string | null;
  /** The receiver's Retry-After, in ms from now. */
  retryAfterMs: number | null;
}

/** Bytes of a response read (and dropped) before the connection is closed: receivers should answer briefly. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * POSTs a delivery with node:http(s). The connection goes to the address the URL guard checked (a `lookup` that
 * answers with it), so a DNS answer that changed since the check cannot redirect it; TLS still verifies the
 * certificate for the host name. Redirects are not followed: a 3xx is a failed attempt.
 */
export class WebhookHttpSender {
  private readonly httpAgent = new HttpAgent({ keepAlive: true, keepAliveMsecs: 5_000 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, keepAliveMsecs: 5_000 });

  constructor(private readonly timeoutMs: number) {}

  send(target: CheckedTarget, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const https = target.url.protocol === 'https:';
    const payload = Buffer.from(body, 'utf8');
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, durationMs: elapsed() });
      };
      const request = (https ? httpsRequest : httpRequest)(target.url, {
        method: 'POST',
        agent: https ? this.httpsAgent : this.httpAgent,
        lookup: pinnedLookup(target),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'basewatch-webhooks/1',
        },
      });
      const timer = setTimeout(() => {
        finish({ statusCode: null, error: `no answer within ${this.timeoutMs} ms`, retryAfterMs: null });
        request.destroy();
      }, this.timeoutMs);
      request.on('response', (response) => {
        drain(response, () =>
          finish({
            statusCode: response.statusCode ?? null,
            error: describeStatus(response.statusCode ?? 0),
            retryAfterMs: retryAfterOf(response.headers['retry-after']),
          }),
        );
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        finish({ statusCode: null, error: `connection failed (${error.code ?? error.message})`, retryAfterMs: null });
      });
      request.end(payload);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** Answers every look-up of the target's host with the address that was checked. */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, all: Array<{ address: string; family: number }>) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
}

function drain(response: IncomingMessage, done: () => void): void {
  let bytes = 0;
  response.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_RESPONSE_BYTES) {
      response.destroy();
      done();
    }
  });
  response.on('end', done);
  response.on('error', done);
  response.on('close', done);
}

function describeStatus(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return `the receiver answered ${status} (redirects are not followed)`;
  return `the receiver answered ${status}`;
}

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
function retryAfterOf(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
