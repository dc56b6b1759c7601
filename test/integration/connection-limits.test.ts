import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A raw TCP connection to the app: what it has received, and whether the server closed it. */
interface RawConnection {
  socket: Socket;
  received: () => string;
  /** Resolves with everything received once the connection is closed (by either side). */
  closed: Promise<string>;
}

async function open(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => text, closed };
}

/** Writes `parts` one after another, `everyMs` apart, until the server closes the connection or they run out. */
function trickle(connection: RawConnection, parts: string[], everyMs: number): () => void {
  let index = 0;
  const timer = setInterval(() => {
    if (connection.socket.destroyed || index >= parts.length) clearInterval(timer);
    else connection.socket.write(parts[index++]!);
  }, everyMs);
  return () => clearInterval(timer);
}

/** GET /healthz on a connection of its own, closed after the answer: the status. */
const healthz = (url: string) =>
  new Promise<number>((resolve, reject) => {
    get(`${url}/healthz`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    }).on('error', reject);
  });

describe('slow requests', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ HTTP_HEADERS_TIMEOUT_MS: '600', HTTP_REQUEST_TIMEOUT_MS: '1200' });
  });
  afterAll(() => app.close());

  it('closes a connection whose headers trickle in, with 408', async () => {
    const connection = await open(app.url);
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: basewatch\r\n');
    // One header line every 100 ms for up to a minute: far past the 600 ms the headers may take.
    const stop = trickle(
      connection,
      Array.from({ length: 600 }, (_, i) => `X-Slow-${i}: 1\r\n`),
      100,
    );
    const answer = await connection.closed;
    stop();
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('"code":"invalid_request"');
    expect(answer).toContain('X-Content-Type-Options: nosniff');
  });

  it('closes a connection whose body trickles in, with 408', async () => {
    const connection = await open(app.url);
    connection.socket.write(
      `PUT /connection HTTP/1.1\r\nHost: basewatch\r\nAuthorization: Bearer ${app.apiKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 600\r\n\r\n{"token":"',
    );
    const stop = trickle(
      connection,
      Array.from({ length: 600 }, () => 'a'),
      100,
    );
    const answer = await connection.closed;
    stop();
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  });

  it('serves a request that arrives in time', async () => {
    expect(await healthz(app.url)).toBe(200);
  });
});

describe('connections per address', () => {
  const CAP = 4;
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ MAX_CONNECTIONS_PER_ADDRESS: String(CAP) });
  });
  afterAll(() => app.close());

  it('refuses the connection past the cap with 429 and closes it; one closed makes room again', async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => open(app.url)));
    const extra = await open(app.url);
    const answer = await extra.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
    expect(answer).toContain('"code":"rate_limited"');
    expect(answer).toContain('X-Content-Type-Options: nosniff');
    // The held ones are still served.
    held[0]!.socket.write('GET /healthz HTTP/1.1\r\nHost: basewatch\r\nConnection: close\r\n\r\n');
    expect(await held[0]!.closed).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    // held[0] is gone (once the server has seen it close): one more fits.
    await expect.poll(() => healthz(app.url), { timeout: 5_000 }).toBe(200);
    for (const connection of held.slice(1)) connection.socket.destroy();
    await Promise.all(held.map((connection) => connection.closed));
  });

  it('counts subscription sockets: they are connections too', async () => {
    const sockets = await Promise.all(
      Array.from({ length: CAP }, async () => {
        const socket = new WebSocket(`${app.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
        await new Promise((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('error', reject);
        });
        return socket;
      }),
    );
    const extra = await open(app.url);
    expect(await extra.closed).toMatch(/^HTTP\/1\.1 429 /);
    const closing = sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of sockets) socket.terminate();
    await Promise.all(closing);
    // The server sees them closed a moment after the clients do; the cap frees up then.
    await expect.poll(() => healthz(app.url).catch(() => 0), { timeout: 5_000 }).toBe(200);
  });
});

describe('MAX_CONNECTIONS_PER_ADDRESS=0', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ MAX_CONNECTIONS_PER_ADDRESS: '0' });
  });
  afterAll(() => app.close());

  it('turns the cap off (behind a load balancer every connection comes from its address)', async () => {
    const held = await Promise.all(Array.from({ length: 80 }, () => open(app.url)));
    expect(await healthz(app.url)).toBe(200);
    for (const connection of held) connection.socket.destroy();
    await Promise.all(held.map((connection) => connection.closed));
  });
});
