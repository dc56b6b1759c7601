import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  const client = createClient({ url: `${app.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
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
    const deep = client.iterate({ query: `subscription($id: ID!) { snapshotRecorded(usageBaseId: $id) { usageBase { ${selection} } } }`, variables: { id: theirs.id } });
    await expect(deep.next()).rejects.toEqual([expect.objectContaining({ extensions: { code: 'invalid_request' } })]);
    const invalid = client.iterate({ query: 'subscription { nope }' });
    await expect(invalid.next()).rejects.toEqual([expect.objectContaining({ extensions: { code: 'invalid_request' } })]);
  });
});
