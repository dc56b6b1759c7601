import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createBrowser, PASSWORD, uniqueEmail } from '../auth/browser.js';
import { until } from '../support/eventually.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A budget small enough to spend in a test, and a cap of two sockets per account. */
const BUDGET = 6;
const MAX_SOCKETS = 2;

let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ API_RATE_LIMIT_PER_MINUTE: String(BUDGET), GRAPHQL_MAX_SOCKETS_PER_ACCOUNT: String(MAX_SOCKETS) });
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await app.close();
});

interface Closed {
  code: number;
  reason: string;
}

/** A socket opened at once (not lazily), with the close event it ends with, if any. */
function open(options: { key?: string; headers?: Record<string, string> }) {
  const { headers = {} } = options;
  class HeaderSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  let closedWith: (event: Closed) => void = () => undefined;
  const closed = new Promise<Closed>((resolve) => (closedWith = resolve));
  let connectedWith: () => void = () => undefined;
  const connected = new Promise<void>((resolve) => (connectedWith = resolve));
  const client = createClient({
    url: `${app.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: HeaderSocket,
    connectionParams: options.key ? { authorization: `Bearer ${options.key}` } : undefined,
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => undefined,
    on: {
      connected: () => connectedWith(),
      closed: (event) => closedWith({ code: (event as Closed).code, reason: String((event as Closed).reason) }),
    },
  });
  clients.push(client);
  return { client, closed, connected };
}

/** Runs one operation to its end: its result, or what ended it (the operation's errors, or the socket's close event). */
function run(client: Client, query: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let result: unknown;
    client.subscribe({ query }, { next: (value) => (result = value), error: reject, complete: () => resolve(result) });
  });
}

const keyCount = async (accountId: string) => (await app.running.services.accounts.activeKeys(accountId)).length;

describe('a socket’s credential is checked again', () => {
  it('runs nothing once its key is revoked in this process, createApiKey included, and closes with 4403', async () => {
    const account = await app.newAccount('revoked-key');
    const socket = open({ key: account.apiKey });
    expect(await run(socket.client, '{ viewer { name } }')).toEqual({ data: { viewer: { name: 'revoked-key' } } });
    const [key] = await app.running.services.accounts.activeKeys(account.accountId);
    await app.running.services.accounts.revokeKey(key!.id);

    await expect(run(socket.client, 'mutation { createApiKey(input: { name: "minted" }) { key } }')).rejects.toMatchObject({ code: 4403 });
    expect(await socket.closed).toMatchObject({ code: 4403, reason: expect.stringMatching(/revoked/) });
    expect(await keyCount(account.accountId)).toBe(0);
  });

  it('closes with 4403 an idle socket whose key another process revoked (within the key cache’s bound)', async () => {
    const account = await app.newAccount('revoked-elsewhere');
    const socket = open({ key: account.apiKey });
    expect(await run(socket.client, '{ viewer { name } }')).toMatchObject({ data: { viewer: { name: 'revoked-elsewhere' } } });
    // As the CLI does from its own process: the row alone, this process's cache untouched.
    await app.running.dataSource.query('UPDATE api_key SET revoked_at = ? WHERE account_id = ?', [
      new Date().toISOString(),
      account.accountId,
    ]);
    expect(await socket.closed).toMatchObject({ code: 4403 });
  }, 30_000);

  it('closes a cookie socket at “sign out everywhere”, and its next operation does not run', async () => {
    const browser = createBrowser(app.url);
    expect(
      (
        await browser.request('POST', '/auth/sign-up', {
          body: { email: uniqueEmail('socket'), password: PASSWORD, accountName: 'cookie socket' },
        })
      ).status,
    ).toBe(201);
    const headers = { cookie: `basewatch_session=${browser.cookie}`, origin: new URL(app.url).origin };
    const idle = open({ headers });
    const busy = open({ headers });
    expect(await run(busy.client, '{ viewer { name } }')).toEqual({ data: { viewer: { name: 'cookie socket' } } });
    await idle.connected;

    expect((await browser.request('DELETE', '/auth/sessions', { csrf: true })).status).toBe(204);
    await expect(run(busy.client, '{ viewer { name } }')).rejects.toMatchObject({ code: 4403 });
    // Nothing is sent on the idle one: the sweep closes it.
    expect(await idle.closed).toMatchObject({ code: 4403 });
  }, 30_000);
});

describe('startAirtableOAuth', () => {
  it('is refused on a socket, which has no response to carry the browser’s cookie', async () => {
    const account = await app.newAccount('oauth-on-socket');
    const result = await run(open({ key: account.apiKey }).client, 'mutation { startAirtableOAuth(input: {}) { authorizeUrl } }');
    expect(result).toMatchObject({
      data: null,
      errors: [{ message: expect.stringMatching(/^startAirtableOAuth needs HTTP/), extensions: { code: 'invalid_request' } }],
    });
    expect(await app.running.dataSource.query('SELECT COUNT(*) AS n FROM oauth_state WHERE account_id = ?', [account.accountId])).toEqual([
      { n: 0 },
    ]);
  });
});

describe('the account’s request budget', () => {
  it('counts every operation on a socket, with the HTTP requests of the account’s other keys: rate_limited past it', async () => {
    const account = await app.newAccount('budget');
    const { apiKey: otherKey } = await app.running.services.accounts.createKey(account.accountId);
    const socket = open({ key: account.apiKey });
    for (let i = 0; i < BUDGET / 2; i++)
      expect(await run(socket.client, '{ viewer { id } }')).toMatchObject({ data: { viewer: { id: expect.any(String) } } });
    for (let i = 0; i < BUDGET / 2; i++) expect((await app.http('GET', '/usage/bases', { key: otherKey })).status).toBe(200);

    const refused = await run(socket.client, '{ viewer { id } }').catch((errors: unknown) => errors);
    expect(refused).toEqual([
      { message: expect.stringMatching(/Too many requests for this account/), extensions: { code: 'rate_limited' } },
    ]);
    expect((await app.http('GET', '/usage/bases', { key: otherKey })).status).toBe(429);
    // The socket itself stays open; another account is not held back.
    expect(await Promise.race([socket.closed, Promise.resolve('open')])).toBe('open');
    expect((await app.other.http('GET', '/usage/bases')).status).toBe(200);
  });
});

describe('GRAPHQL_MAX_SOCKETS_PER_ACCOUNT', () => {
  it('closes the socket past the cap with 4429 and says why; a place freed is taken again', async () => {
    const account = await app.newAccount('sockets');
    const held = Array.from({ length: MAX_SOCKETS }, () => open({ key: account.apiKey }));
    await Promise.all(held.map((socket) => socket.connected));

    const extra = open({ key: account.apiKey });
    expect(await extra.closed).toEqual({
      code: 4429,
      reason: `Too many open sockets for this account: at most ${MAX_SOCKETS} (GRAPHQL_MAX_SOCKETS_PER_ACCOUNT)`,
    });
    // Another account has its own places.
    await open({ key: app.other.apiKey }).connected;

    await held[0]!.client.dispose();
    const again = await until(
      async () => {
        const socket = open({ key: account.apiKey });
        return Promise.race([socket.connected.then(() => 'connected'), socket.closed.then((event) => event.code)]);
      },
      (outcome) => outcome === 'connected',
    );
    expect(again).toBe('connected');
  });
});
