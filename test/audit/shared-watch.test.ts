import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamWatch } from '../../src/entities/index.js';
import type { Http } from '../support/http.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { allChanges, AUDIT_APP_ENV, eventually, relaxSandboxRateLimit } from './audit-support.js';
import type { JsonBody } from '../support/json-body.js';

const ACCOUNTS = 11;

describe('one upstream watch per base, shared by every account that watches it', () => {
  let app: TestApp;
  const lines: string[] = [];
  let owner: { id: string; token: string };
  let baseId: string;
  let tableName: string;
  const accounts: Array<{ http: Http; accountId: string; configId: string; userId: string; token: string }> = [];

  const control = <T = JsonBody>(method: string, path: string, body?: unknown) => sandboxControl(app.url)<T>(method, path, body);

  /** A record made by the base's owner, through its own token, as a change made in Airtable would be. */
  async function addRecord(name: string): Promise<void> {
    const res = await fetch(`${app.url}/sandbox/airtable/v0/${baseId}/${encodeURIComponent(tableName)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ records: [{ fields: { Name: name } }] }),
    });
    expect(res.status).toBe(200);
  }

  const logged = (configId: string, http: Http) => allChanges(http, configId);
  const names = (changes: Awaited<ReturnType<typeof allChanges>>) => changes.flatMap((c) => Object.values(c.after ?? {}));

  beforeAll(async () => {
    app = await startTestApp({ ...AUDIT_APP_ENV, LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(line) });
    relaxSandboxRateLimit(app);
    owner = await control('POST', 'users', { email: 'owner@example.com' });
    const base = await control<{ id: string; tables: Array<{ name: string }> }>('POST', `users/${owner.id}/bases`, { name: 'Shared base' });
    baseId = base.id;
    tableName = base.tables[0]!.name;
    for (let i = 0; i < ACCOUNTS; i += 1) {
      const user = await control<{ id: string; token: string }>('POST', 'users', { email: `watcher${i}@example.com` });
      await control('POST', `bases/${baseId}/share`, { userId: user.id });
      // Each account logs into a base of its own user.
      const logBase = await control<{ id: string }>('POST', `users/${user.id}/bases`, { name: `Log ${i}` });
      const account = await app.newAccount(`watcher ${i}`);
      expect((await account.http('PUT', '/connection', { body: { token: user.token } })).status).toBe(200);
      const config = await account.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId: logBase.id } });
      expect(config.status, `account ${i}`).toBe(201);
      accounts.push({ ...account, configId: config.body.config.id, userId: user.id, token: user.token });
    }
  }, 60_000);
  afterAll(() => app?.close());

  it(`lets ${ACCOUNTS} accounts watch one base through a single upstream webhook, each getting every change`, async () => {
    const watches = await app.running.dataSource.getRepository(UpstreamWatch).findBy({ baseId });
    expect(watches).toHaveLength(1);
    expect(watches[0]!.accountId).toBe(accounts[0]!.accountId);

    await addRecord('Seen by all');
    for (const account of accounts) {
      const changes = await eventually(
        () => logged(account.configId, account.http),
        (list) => names(list).includes('Seen by all'),
      );
      expect(names(changes)).toContain('Seen by all');
    }
  }, 60_000);

  it('gives nothing more to an account whose connection no longer sees the base (another upstream user)', async () => {
    const switching = accounts[ACCOUNTS - 1]!;
    const stranger = await control<{ token: string }>('POST', 'users', { email: 'stranger@example.com' });
    expect((await switching.http('PUT', '/connection', { body: { token: stranger.token } })).status).toBe(200);
    await addRecord('Not for the stranger');
    const other = accounts[1]!;
    await eventually(
      () => logged(other.configId, other.http),
      (list) => names(list).includes('Not for the stranger'),
    );
    // Its config is not_found meanwhile, as another account's would be (CONTRACT §8).
    expect((await switching.http('GET', `/monitoring-config/${switching.configId}/changes`)).status).toBe(404);
    // Back to its own user: its changes resume, without what came while it could not see the base.
    expect((await switching.http('PUT', '/connection', { body: { token: switching.token } })).status).toBe(200);
    await addRecord('Back again');
    const changes = await eventually(
      () => logged(switching.configId, switching.http),
      (list) => names(list).includes('Back again'),
    );
    expect(names(changes)).toContain('Back again');
    expect(names(changes)).not.toContain('Not for the stranger');
  }, 60_000);

  it('moves the watch to another account when the holder’s grant is revoked, logging the gap; the holder gets nothing more', async () => {
    const holder = accounts[0]!;
    await control('POST', 'tokens/revoke', { token: holder.token });
    // The upkeep finds the holder refused and moves the watch (a ping read by the holder would do the same).
    expect(await app.running.services.watches.maintain()).toEqual({ refreshed: 0, recreated: 1 });
    await addRecord('After the move');
    for (const account of accounts.slice(1)) {
      const changes = await eventually(
        () => logged(account.configId, account.http),
        (list) => names(list).includes('After the move'),
        30_000,
      );
      expect(names(changes)).toContain('After the move');
    }
    const [watch] = await app.running.dataSource.getRepository(UpstreamWatch).findBy({ baseId });
    expect(watch!.accountId).not.toBe(holder.accountId);
    const events = lines.map((line) => JSON.parse(line) as { msg?: string; level: number; baseId?: string });
    expect(events.find((e) => e.msg === 'upstream watch moved to another account')).toMatchObject({ level: 40, baseId });
    expect(events.find((e) => e.msg?.startsWith('upstream watch re-created'))).toMatchObject({ level: 40, baseId });
    // The holder's connection needs re-authorisation: its log stops there.
    expect(names(await logged(holder.configId, holder.http))).not.toContain('After the move');
  }, 60_000);
});
