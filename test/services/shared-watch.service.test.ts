import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamWatch } from '../../src/entities/index.js';
import { refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';
import { afterValues, allChanges, runPipeline } from './audit-flow.js';

const ACCOUNTS = 11;

/** One upstream watch per base, shared by every account that watches it (UpstreamWatchService), without HTTP. */
describe('one upstream watch per base, shared by every account that watches it', () => {
  let t: TestServices;
  const lines: string[] = [];
  let baseId: string;
  let tableId: string;
  const accounts: Array<{ accountId: string; configId: string; userId: string; token: string }> = [];

  /** A record made in the base, as a change made in Airtable would be. */
  const addRecord = (name: string) => t.sandbox.store.createRecords(baseId, tableId, [{ Name: name }]);
  const names = (accountId: string, configId: string) => allChanges(t, configId, accountId).then(afterValues);
  const connect = (accountId: string, token: string) => t.services.connections.setToken(accountId, token);

  beforeAll(async () => {
    t = await startTestServices({ LOG_LEVEL: 'info' }, { logStream: { write: (line: string) => void lines.push(line) } });
    t.sandbox.faults.update({ rateLimitPerSecond: 1_000 });
    const { auth } = t.sandbox;
    const owner = auth.createUser('owner@example.com');
    const { base, table } = auth.createUserBase(owner.user.id, 'Shared base');
    baseId = base.id;
    tableId = table.id;
    for (let i = 0; i < ACCOUNTS; i += 1) {
      const { user, token } = auth.createUser(`watcher${i}@example.com`);
      auth.share(baseId, user.id);
      // Each account logs into a base of its own user.
      const logBase = auth.createUserBase(user.id, `Log ${i}`).base;
      const { accountId } = await t.newAccount(`watcher ${i}`);
      await connect(accountId, token);
      const config = await t.services.monitoringConfigs.create(accountId, { baseId, monitoringBaseId: logBase.id });
      accounts.push({ accountId, configId: config.id, userId: user.id, token });
    }
  }, 60_000);
  afterAll(() => t?.close());

  it(`lets ${ACCOUNTS} accounts watch one base through a single upstream webhook, each getting every change`, async () => {
    const watches = await t.dataSource.getRepository(UpstreamWatch).findBy({ baseId });
    expect(watches).toHaveLength(1);
    expect(watches[0]!.accountId).toBe(accounts[0]!.accountId);

    addRecord('Seen by all');
    await runPipeline(t);
    for (const account of accounts) expect(await names(account.accountId, account.configId)).toContain('Seen by all');
  });

  it('gives nothing more to an account whose connection no longer sees the base (another upstream user)', async () => {
    const switching = accounts[ACCOUNTS - 1]!;
    const stranger = t.sandbox.auth.createUser('stranger@example.com');
    await connect(switching.accountId, stranger.token);
    addRecord('Not for the stranger');
    await runPipeline(t);
    const other = accounts[1]!;
    expect(await names(other.accountId, other.configId)).toContain('Not for the stranger');
    // Its config is not_found meanwhile, as another account's would be (CONTRACT §8).
    expect(await refusal(() => t.services.monitoringConfigs.logTarget(switching.accountId, switching.configId))).toBe('not_found');
    // Back to its own user: its changes resume, without what came while it could not see the base.
    await connect(switching.accountId, switching.token);
    addRecord('Back again');
    await runPipeline(t);
    const seen = await names(switching.accountId, switching.configId);
    expect(seen).toContain('Back again');
    expect(seen).not.toContain('Not for the stranger');
  });

  it('moves the watch to another account when the holder’s grant is revoked, logging the gap; the holder gets nothing more', async () => {
    const holder = accounts[0]!;
    t.sandbox.auth.revoke({ token: holder.token });
    // The upkeep finds the holder refused and moves the watch (a ping read by the holder would do the same).
    expect(await t.services.watches.maintain()).toEqual({ refreshed: 0, recreated: 1 });
    addRecord('After the move');
    await runPipeline(t);
    for (const account of accounts.slice(1)) expect(await names(account.accountId, account.configId)).toContain('After the move');
    const [watch] = await t.dataSource.getRepository(UpstreamWatch).findBy({ baseId });
    expect(watch!.accountId).not.toBe(holder.accountId);
    const events = lines.map((line) => JSON.parse(line) as { msg?: string; level: number; baseId?: string });
    expect(events.find((e) => e.msg === 'upstream watch moved to another account')).toMatchObject({ level: 40, baseId });
    expect(events.find((e) => e.msg?.startsWith('upstream watch re-created'))).toMatchObject({ level: 40, baseId });
    // The holder's connection needs re-authorisation: its log stops there.
    expect(await names(holder.accountId, holder.configId)).not.toContain('After the move');
  });
});
