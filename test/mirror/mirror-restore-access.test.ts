import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_APP_ENV, relaxSandboxRateLimit } from '../audit/audit-support.js';
import { until } from '../support/eventually.js';
import { DEMO_BASES, newLogBase, upstreamBaseId } from '../support/factories.js';
import type { Http } from '../support/http.js';
import { sandboxApi } from '../support/sandbox-api.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** How long a step may take on a busy machine (an upper bound, not a measurement). */
const WAIT_MS = 60_000;

interface UpstreamUser {
  id: string;
  token: string;
  /** A base of the user's own (it creates there): where its configs log. */
  ownBaseId: string;
}

/** A new user of the app's sandbox with a base of its own, and its personal access token (every scope). */
async function upstreamUser(app: TestApp, name: string): Promise<UpstreamUser> {
  const control = sandboxControl(app.url);
  const user = await control<{ id: string; token: string }>('POST', 'users', { email: `${name}@example.com` });
  const base = await control<{ id: string }>('POST', `users/${user.id}/bases`, { name: `${name}'s log` });
  return { id: user.id, token: user.token, ownBaseId: base.id };
}

/** A config of `baseId` logging into `monitoringBaseId`, once the base's mirror is live. */
async function liveConfig(http: Http, baseId: string, monitoringBaseId: string): Promise<string> {
  const res = await http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId, scope: 'records_only' } });
  expect(res.status, res.text).toBe(201);
  const configId = res.body.config.id as string;
  await until(
    async () => (await http('GET', `/monitoring-config/${configId}/mirror`)).body.mirror?.status,
    (status) => status === 'live',
    WAIT_MS,
  );
  return configId;
}

/** A record of the base's first table and that table, from the sandbox. */
async function someRecord(app: TestApp, baseId: string): Promise<{ tableId: string; recordId: string }> {
  const api = sandboxApi(app.url);
  const [table] = await api.schema(baseId);
  const [record] = (await api.listRecords(baseId, table!.id)).records as Array<{ id: string }>;
  return { tableId: table!.id, recordId: record!.id };
}

/** A restore writes through the account's own connection (CONTRACT §11): one that cannot write is refused up front. */
describe('a restore through a connection that cannot write', { timeout: 2 * WAIT_MS }, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp(AUDIT_APP_ENV);
    relaxSandboxRateLimit(app);
  });
  afterAll(() => app?.close());

  it('is 403 forbidden when the connection only reads the base, dry run included, and nothing is stored', async () => {
    const catalog = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    // The base is watched (and mirrored) through the first account; the reader's config shares that watch.
    await liveConfig(app.http, catalog, newLogBase(app));
    const reader = await upstreamUser(app, 'mirror-reader');
    await sandboxControl(app.url)('POST', `bases/${catalog}/share`, { userId: reader.id, permissionLevel: 'read' });
    const account = await app.newAccount('read-only connection');
    expect((await account.http('PUT', '/connection', { body: { token: reader.token } })).status).toBe(200);
    const bases = (await account.http('GET', '/airtable/bases')).body.bases as Array<{ id: string; permissionLevel: string }>;
    expect(bases.find((base) => base.id === catalog)?.permissionLevel).toBe('read');
    const configId = await liveConfig(account.http, catalog, reader.ownBaseId);

    const { tableId, recordId } = await someRecord(app, catalog);
    // It reads the mirror like any account whose connection sees the base…
    expect((await account.http('GET', `/monitoring-config/${configId}/records/${recordId}`)).status).toBe(200);
    // …and may not write it back.
    for (const dryRun of [false, true]) {
      const res = await account.http('POST', `/monitoring-config/${configId}/restores`, {
        body: { tableId, recordIds: [recordId], dryRun },
      });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden' });
    }
    const [stored] = await app.running.dataSource.query(`SELECT COUNT(*) AS n FROM mirror_restore WHERE config_id = '${configId}'`);
    expect(Number(stored.n)).toBe(0);
  });
});

describe('a restore by an account without a connection, when the deployment has no shared token', { timeout: 2 * WAIT_MS }, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ ...AUDIT_APP_ENV, AIRTABLE_SHARED_TOKEN: 'false' });
    relaxSandboxRateLimit(app);
  });
  afterAll(() => app?.close());

  it('is 409 upstream_not_connected', async () => {
    const owner = await upstreamUser(app, 'mirror-owner');
    const watched = await sandboxControl(app.url)<{ id: string; tables: Array<{ id: string }> }>('POST', `users/${owner.id}/bases`, {
      name: 'Watched',
    });
    const tableId = watched.tables[0]!.id;
    const created = await sandboxApi(app.url, owner.token).createRecords(watched.id, tableId, [{ Name: 'Kept' }]);
    const recordId = created.records[0].id as string;
    expect((await app.http('PUT', '/connection', { body: { token: owner.token } })).status).toBe(200);
    const configId = await liveConfig(app.http, watched.id, owner.ownBaseId);
    expect((await app.http('DELETE', '/connection')).status).toBe(204);

    const res = await app.http('POST', `/monitoring-config/${configId}/restores`, { body: { tableId, recordIds: [recordId] } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'upstream_not_connected' });
  });
});
