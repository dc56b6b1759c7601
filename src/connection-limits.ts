import type { Server, ServerOptions } from 'node:http';

export interface ConnectionLimits {
  /** All of a request's headers must arrive within this (HTTP_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (HTTP_REQUEST_TIMEOUT_MS); the answer may take longer. */
  requestTimeoutMs: number;
  /** Open connections one remote address may hold on this process (MAX_CONNECTIONS_PER_ADDRESS); 0: no cap. */
  maxPerAddress: number;
}

/**
 * Node's own timeouts for a request that trickles in: it is answered 408 (`answerClientError`) and closed. Node looks
 * for late requests only every `connectionsCheckingInterval` (30 s by default), so that follows the timeouts.
 */
export function slowRequestOptions(limits: ConnectionLimits): ServerOptions {
  const requestTimeout = limits.requestTimeoutMs;
  // Node refuses a headers timeout longer than the request's.
  const headersTimeout = Math.min(limits.headersTimeoutMs, requestTimeout);
  return { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(100, Math.round(headersTimeout / 4)) };
}

const REFUSED_BODY = JSON.stringify({ message: 'Too many open connections from this address', code: 'rate_limited' });
const REFUSED =
  'HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n' +
  `Content-Length: ${Buffer.byteLength(REFUSED_BODY)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${REFUSED_BODY}`;

/**
 * Caps the connections each remote address holds open at once: the one past the cap is answered 429 and closed
 * before any request is read. A subscription socket is such a connection too (it began as one). Counted on the
 * socket, not on a request: no library caps TCP connections per address for node:http (express-rate-limit and the
 * like count requests, which a slow or idle connection never completes), and the count is a map of small integers.
 * Behind a load balancer or reverse proxy every connection comes from its address: raise the cap or turn it off (0)
 * and cap per client there.
 */
export function capConnectionsPerAddress(server: Server, maxPerAddress: number): void {
  if (maxPerAddress <= 0) return;
  const open = new Map<string, number>();
  // Before the HTTP server's own listener, so that a refused connection is closed before it is read.
  server.prependListener('connection', (socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= maxPerAddress) {
      socket.end(REFUSED, () => socket.destroy());
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
