import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { PASSWORD, uniqueEmail } from '../auth/browser.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
let cookie: string;
let userId: string;
const clients: Client[] = [];
const LISTED_ORIGIN = 'https://dashboard.example.com';

beforeAll(async () => {
  app = await startTestApp({ CORS_ORIGINS: `${LISTED_ORIGIN},*` });
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
  // The test account's owner signs in as the web application does (a CLI-made account given a user).
  const { user, setPasswordUrl } = await app.running.services.users.createByOperator(uniqueEmail('socket'), app.accountId);
  const signedIn = await app.running.services.users.setPassword({
    token: new URL(setPasswordUrl).searchParams.get('token')!,
    password: PASSWORD,
  });
  cookie = `basewatch_session=${signedIn.token}`;
  userId = user.id;
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await app.close();
});

/** A socket as a browser opens it: the Cookie and Origin headers on the upgrade request, no connectionParams. */
function connect(headers: Record<string, string>, connectionParams?: Record<string, unknown>): Client {
  class BrowserLikeSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers });
    }
  }
  const client = createClient({
    url: `${app.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: BrowserLikeSocket,
    connectionParams,
    retryAttempts: 0,
  });
  clients.push(client);
  return client;
}

const SNAPSHOT_RECORDED = 'subscription($id: ID!) { snapshotRecorded(usageBaseId: $id) { date usageBase { restId } } }';
const PROBE_DAY = '2000-01-02';

/** The first event of a snapshotRecorded subscription: records an old day until the subscription has started. */
async function firstSnapshot(client: Client, baseId: string) {
  const events = client.iterate({ query: SNAPSHOT_RECORDED, variables: { id: baseId } });
  const first = events.next();
  let received: IteratorResult<unknown> | undefined;
  while (!received) {
    await app.running.services.snapshots.record(baseId, PROBE_DAY, [], new Date());
    received = await Promise.race([first, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50))]);
  }
  await events.return?.();
  return received.value;
}

describe('graphql-ws authenticated by the web application’s session cookie', () => {
  it('subscribes and receives with the cookie from the app’s own origin and from a CORS_ORIGINS origin', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    const own = new URL(app.url).origin;
    for (const origin of [own, LISTED_ORIGIN]) {
      const value = await firstSnapshot(connect({ cookie, origin }), base.id);
      expect(value).toEqual({ data: { snapshotRecorded: { date: PROBE_DAY, usageBase: { restId: base.id } } } });
    }
  });

  it('closes with 4403 a cookie from a foreign origin, without an origin, and a socket without credentials', async () => {
    const cases: Array<Record<string, string>> = [
      { cookie, origin: 'https://evil.example' },
      { cookie, origin: 'null' },
      { cookie },
      { origin: new URL(app.url).origin },
    ];
    for (const headers of cases) {
      const events = connect(headers).iterate({ query: '{ viewer { id } }' });
      await expect(events.next(), JSON.stringify(headers.origin)).rejects.toMatchObject({ code: 4403 });
    }
  });

  it('keeps taking an API key from any origin, and a wrong key does not fall back to the cookie', async () => {
    const withKey = await connect({ origin: 'https://evil.example' }, { authorization: `Bearer ${app.apiKey}` })
      .iterate({ query: '{ viewer { id } }' })
      .next();
    expect(withKey.value).toMatchObject({ data: { viewer: { id: expect.any(String) } } });
    const wrongKey = connect(
      { cookie, origin: new URL(app.url).origin },
      { authorization: 'Bearer sk_unknownunknownunknownunknownunknown12' },
    );
    await expect(wrongKey.iterate({ query: '{ viewer { id } }' }).next()).rejects.toMatchObject({ code: 4403 });
  });

  it('refuses a revoked session at connect', async () => {
    const origin = new URL(app.url).origin;
    expect((await connect({ cookie, origin }).iterate({ query: '{ viewer { id } }' }).next()).value).toMatchObject({
      data: { viewer: {} },
    });
    await app.running.services.sessions.revokeAll(userId);
    await expect(connect({ cookie, origin }).iterate({ query: '{ viewer { id } }' }).next()).rejects.toMatchObject({ code: 4403 });
  });
});
