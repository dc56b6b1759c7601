import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { SNAPSHOT_DAY_FIELDS } from './support/shapes.js';

let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp();
  // Counts here are about GraphQL, not the upstream's budget: a loaded machine must not turn them into 429s.
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await app.close();
});

function connect(connectionParams: Record<string, unknown>): Client {
  const client = createClient({
    url: `${app.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
  });
  clients.push(client);
  return client;
}

const SNAPSHOT_RECORDED = `subscription($id: ID!) { snapshotRecorded(usageBaseId: $id) { ${SNAPSHOT_DAY_FIELDS} usageBase { restId } } }`;
const PROBE_DAY = '2000-01-01';

describe('snapshotRecorded over graphql-ws', () => {
  it('delivers the day a POST …/run records, authenticated by the key in connectionParams', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    const events = connect({ authorization: `Bearer ${app.apiKey}` }).iterate({ query: SNAPSHOT_RECORDED, variables: { id: base.id } });
    // The subscription starts asynchronously: record an old day until it arrives, then the run's day is next.
    const first = events.next();
    let probed: IteratorResult<unknown> | undefined;
    while (!probed) {
      await app.running.services.snapshots.record(base.id, PROBE_DAY, [], new Date());
      probed = await Promise.race([first, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 50))]);
    }
    expect(probed.value).toMatchObject({ data: { snapshotRecorded: { date: PROBE_DAY, usageBase: { restId: base.id } } } });

    const run = await app.http('POST', `/usage/bases/${base.id}/run`);
    expect(run.status).toBe(200);
    const next = await events.next();
    const latest = await app.http('GET', `/usage/bases/${base.id}/snapshots/latest`);
    const { id, usageBase, ...day } = (next.value as { data: { snapshotRecorded: Record<string, unknown> } }).data.snapshotRecorded;
    expect(day).toEqual(latest.body.day);
    expect(day.date).toBe(run.body.snapshotDate);
    expect(usageBase).toEqual({ restId: base.id });
    expect(id).toEqual(expect.any(String));
    await events.return?.();
  });

  it('closes a connection without a valid key with 4403', async () => {
    for (const params of [{}, { authorization: 'Bearer sk_unknownunknownunknownunknownunknown12' }]) {
      const events = connect(params).iterate({ query: '{ viewer { id } }' });
      await expect(events.next()).rejects.toMatchObject({ code: 4403 });
    }
  });

  it('answers not_found for another account’s base, and applies the same limits as HTTP', async () => {
    const theirs = await trackBase(app.other.http, DEMO_BASES.marketing);
    const client = connect({ authorization: app.apiKey });
    const foreign = await client.iterate({ query: SNAPSHOT_RECORDED, variables: { id: theirs.id } }).next();
    expect(foreign.value).toMatchObject({ errors: [{ extensions: { code: 'not_found' } }] });

    let selection = 'id';
    for (let i = 0; i < 6; i += 1) selection = `latestSnapshot { usageBase { ${selection} } }`;
    const deep = client.iterate({
      query: `subscription($id: ID!) { snapshotRecorded(usageBaseId: $id) { usageBase { ${selection} } } }`,
      variables: { id: theirs.id },
    });
    await expect(deep.next()).rejects.toEqual([expect.objectContaining({ extensions: { code: 'invalid_request' } })]);
    const invalid = client.iterate({ query: 'subscription { nope }' });
    await expect(invalid.next()).rejects.toEqual([expect.objectContaining({ extensions: { code: 'invalid_request' } })]);
  });
});

/** A raw graphql-transport-ws socket, acknowledged, for messages no client library would send (JSON it cannot stringify). */
async function rawSocket(): Promise<{
  send(text: string): void;
  next(): Promise<Record<string, unknown>>;
  closed: () => number | undefined;
  close(): void;
}> {
  const socket = new WebSocket(`${app.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const received: Array<Record<string, unknown>> = [];
  const waiting: Array<(message: Record<string, unknown>) => void> = [];
  let closeCode: number | undefined;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    const wake = waiting.shift();
    if (wake) wake(message);
    else received.push(message);
  });
  socket.on('close', (code) => {
    closeCode = code;
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve) => (received.length ? resolve(received.shift()!) : waiting.push(resolve)));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: app.apiKey } }));
  expect(await next()).toMatchObject({ type: 'connection_ack' });
  return { send: (text) => socket.send(text), next, closed: () => closeCode, close: () => socket.close() };
}

describe('requests the socket refuses, as HTTP does', () => {
  it('refuses variables nested 10,000 lists deep with an error for that operation; the socket stays open', async () => {
    const stderr = vi.spyOn(console, 'error');
    try {
      const socket = await rawSocket();
      const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
      socket.send(`{"id":"deep","type":"subscribe","payload":{"query":"query($n: Int) { viewer { id } }","variables":{"n":${deep}}}}`);
      expect(await socket.next()).toEqual({
        id: 'deep',
        type: 'error',
        payload: [
          {
            message: 'Variables and extensions nest lists and objects more than 32 levels deep; at most 32 are allowed',
            extensions: { code: 'invalid_request' },
          },
        ],
      });
      socket.send(JSON.stringify({ id: 'after', type: 'subscribe', payload: { query: '{ viewer { restId } }' } }));
      expect(await socket.next()).toEqual({ id: 'after', type: 'next', payload: { data: { viewer: { restId: app.accountId } } } });
      expect(socket.closed()).toBeUndefined();
      socket.close();
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
    }
  });

  it('answers graphql-js’s messages with their locations for validation, variable and operation-name errors', async () => {
    const client = connect({ authorization: app.apiKey });
    await expect(client.iterate({ query: 'subscription {\n  nope\n}' }).next()).rejects.toEqual([
      {
        message: 'Cannot query field "nope" on type "Subscription".',
        locations: [{ line: 2, column: 3 }],
        extensions: { code: 'invalid_request' },
      },
    ]);
    await expect(client.iterate({ query: '{ viewer {' }).next()).rejects.toEqual([
      {
        message: 'Syntax Error: Expected Name, found <EOF>.',
        locations: [{ line: 1, column: 11 }],
        extensions: { code: 'invalid_request' },
      },
    ]);
    const missing = await client.iterate({ query: SNAPSHOT_RECORDED, variables: {} }).next();
    expect(missing.value).toEqual({
      errors: [
        {
          message: 'Variable "$id" of required type "ID!" was not provided.',
          locations: [{ line: 1, column: 14 }],
          extensions: { code: 'invalid_request' },
        },
      ],
    });
    const two = 'query A { viewer { id } } query B { viewer { id } }';
    await expect(client.iterate({ query: two }).next()).rejects.toEqual([
      { message: 'Must provide operation name if query contains multiple operations.', extensions: { code: 'invalid_request' } },
    ]);
    await expect(client.iterate({ query: two, operationName: 'C' }).next()).rejects.toEqual([
      { message: 'Unknown operation named "C".', extensions: { code: 'invalid_request' } },
    ]);
  });

  it('refuses a subscription sent over HTTP (POST or GET) with 400, naming the socket', async () => {
    const query = 'subscription($id: ID!) { snapshotRecorded(usageBaseId: $id) { date } }';
    const headers = { authorization: `Bearer ${app.apiKey}`, 'content-type': 'application/json' };
    const post = await fetch(`${app.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables: { id: 'x' } }) });
    const get = await fetch(`${app.url}/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent('{"id":"x"}')}`, {
      headers: { authorization: headers.authorization, 'apollo-require-preflight': 'true' },
    });
    for (const res of [post, get]) {
      expect(res.status).toBe(400);
      const { errors } = (await res.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(errors).toEqual([
        { message: expect.stringMatching(/WebSocket at \/graphql .*graphql-ws/), extensions: { code: 'invalid_request' } },
      ]);
    }
    // A document with a query beside the subscription still runs the query it names.
    const both = `query Q { viewer { restId } } ${query.replace('subscription', 'subscription S')}`;
    const named = await fetch(`${app.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: both, operationName: 'Q' }) });
    expect(await named.json()).toEqual({ data: { viewer: { restId: app.accountId } } });
  });
});
