import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { allChanges, AUDIT_APP_ENV, eventually, relaxSandboxRateLimit } from '../audit/audit-support.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { asRest, CHANGE_FIELDS } from './support/shapes.js';

let app: TestApp;
let api: SandboxApi;
let baseId: string;
let monitoringBaseId: string;
const clients: Client[] = [];

beforeAll(async () => {
  // Jobs run (ingestion on the upstream's pings, and polling), quickly; the test's own sandbox calls are not throttled.
  app = await startTestApp(AUDIT_APP_ENV);
  relaxSandboxRateLimit(app);
  api = sandboxApi(app.url);
  baseId = await upstreamBaseId(app.http, DEMO_BASES.marketing);
  monitoringBaseId = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
});
afterAll(async () => {
  for (const client of clients) await client.dispose();
  await app?.close();
});

function connect(apiKey: string): Client {
  const client = createClient({
    url: `${app.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${apiKey}` },
    retryAttempts: 0,
  });
  clients.push(client);
  return client;
}

const CHANGE_LOGGED = `subscription($id: ID!) { changeLogged(monitoringConfigId: $id) { ${CHANGE_FIELDS} monitoringConfig { restId } } }`;

type Logged = { restId: string; recordId: string | null; eventType: string; monitoringConfig: { restId: string } } & Record<
  string,
  unknown
>;

/** The next event of a subscription, or undefined after `ms`. */
const within = <T>(next: Promise<IteratorResult<T>>, ms: number) =>
  Promise.race([next, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms))]);

describe('changeLogged over graphql-ws', () => {
  it('delivers a change made through the sandbox’s API, as GET …/changes lists it', async () => {
    const created = await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId } });
    expect(created.status).toBe(201);
    const config = created.body.config as { id: string };
    const [campaigns] = await api.schema(baseId);
    const primary = campaigns!.fields.find((f) => f.id === campaigns!.primaryFieldId)!;
    const events = connect(app.apiKey).iterate<{ changeLogged: Logged }>({ query: CHANGE_LOGGED, variables: { id: config.id } });

    // The subscription starts asynchronously: make probe changes until one arrives, then the change under test.
    let pending = events.next();
    for (let probe = 0; !(await within(pending, 3_000)); probe += 1) {
      expect(probe).toBeLessThan(10);
      await api.createRecords(baseId, campaigns!.id, [{ [primary.name]: `Probe ${probe}` }]);
    }
    const made = await api.createRecords(baseId, campaigns!.id, [{ [primary.name]: 'Subscribed launch' }], {
      source: 'client',
      email: 'sub@example.com',
      name: 'Sub Scriber',
    });
    const recordId = made.records[0].id as string;
    let event: Logged | undefined;
    while (!event) {
      pending = events.next();
      const next = await within(pending, 15_000);
      expect(next, 'no changeLogged event within 15 s').toBeDefined();
      const logged = (next as IteratorResult<{ data?: { changeLogged: Logged } }>).value.data!.changeLogged;
      if (logged.recordId === recordId) event = logged;
    }
    const rest = (
      await eventually(
        () => allChanges(app.http, config.id),
        (records) => records.some((r) => r.recordId === recordId),
      )
    ).find((r) => r.recordId === recordId)!;
    const { monitoringConfig, ...change } = event;
    expect(monitoringConfig).toEqual({ restId: config.id });
    // The Changes-table row may be written after the event: REST may show its id already.
    expect({ ...asRest(change), monitoringRecordId: null }).toEqual({ ...rest, monitoringRecordId: null });
    expect(change).toMatchObject({
      eventType: 'RECORD_CREATE',
      kind: 'RECORD',
      source: 'CLIENT',
      userEmail: 'sub@example.com',
      userName: 'Sub Scriber',
    });
    await events.return?.();
  }, 60_000);

  it('answers not_found for another account’s config', async () => {
    const theirs = await app.other.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId } });
    expect(theirs.status).toBe(201);
    const foreign = await connect(app.apiKey)
      .iterate({ query: CHANGE_LOGGED, variables: { id: theirs.body.config.id } })
      .next();
    expect(foreign.value).toMatchObject({ errors: [{ extensions: { code: 'not_found' } }] });
  });
});
