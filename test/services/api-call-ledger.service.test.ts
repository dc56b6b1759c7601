import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/database.js';
import { UpstreamApiCall } from '../../src/entities/index.js';
import { createLogger } from '../../src/logger.js';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { ApiCallLedgerService, monthOf } from '../../src/services/usage-insight/api-call-ledger.service.js';
import { apiCallInput } from '../../src/services/usage-insight/api-call.input.js';
import { withCallPurpose, type CallTally } from '../../src/upstream/call-purpose.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed, refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** The API-call ledger and an account's month of upstream requests (ApiCallUsageService.month), without HTTP. */

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterEach(() => t.sandbox.faults.reset());
afterAll(() => t?.close());

/** An account's month, the query as GET /usage/api-calls takes it. */
const apiCalls = (accountId = t.accountId, query: Record<string, string> = {}) =>
  t.services.apiCalls.month(accountId, parsed(apiCallInput.usage, query).month);
type Usage = Awaited<ReturnType<typeof apiCalls>>;
const callsTo = (usage: Usage, baseId: string) => usage.byBase.find((b) => b.baseId === baseId)?.calls ?? 0;
/** The sandbox's own tally (requests it answered, faults it injected), copied. */
const sandboxStats = () => ({
  requests: t.sandbox.stats.requests,
  faultsInjected: t.sandbox.stats.faultsInjected,
  byBase: Object.fromEntries([...t.sandbox.stats.byBase].map(([baseId, traffic]) => [baseId, { ...traffic }])),
});

const track = async (accountId: string, baseId: string) => t.services.usageBases.create(accountId, { baseId });

/** A sandbox user with a base of its own, connected to a new account with its personal access token. */
async function connectedAccount(name: string) {
  const { user, token } = t.sandbox.auth.createUser(`${name}@example.com`);
  const { base } = t.sandbox.auth.createUserBase(user.id, `${name}'s base`);
  const account = await t.newAccount(name);
  await t.services.connections.setToken(account.accountId, token);
  return { ...account, userId: user.id, baseId: base.id };
}

describe('ApiCallUsageService.month', () => {
  it('counts a usage count exactly as the sandbox tallied its requests, retries and 429s included', async () => {
    const base = await track(t.accountId, t.baseId(DEMO_BASES.catalog));
    // Some requests answered 429: the client waits out the lock-out and repeats, and both sides count
    // each try (the sandbox's draws are seeded).
    t.sandbox.faults.update({ errorRate: 0.4, errorStatus: 429 });
    const sandboxBefore = sandboxStats();
    const before = await apiCalls();

    await t.services.usageCounts.count(t.accountId, base.id);

    const sandboxAfter = sandboxStats();
    const after = await apiCalls();
    const tallied = sandboxAfter.byBase[base.baseId]!.requests - (sandboxBefore.byBase[base.baseId]?.requests ?? 0);
    expect(sandboxAfter.faultsInjected - sandboxBefore.faultsInjected).toBeGreaterThan(0);
    // One schema read and ceil(records/100) pages a table, at least: the catalog has 3 tables and 410 records.
    expect(tallied).toBeGreaterThanOrEqual(1 + 6);
    expect(after.byPurpose.count - before.byPurpose.count).toBe(tallied);
    expect(callsTo(after, base.baseId) - callsTo(before, base.baseId)).toBe(tallied);
    expect(after.total - before.total).toBe(sandboxAfter.requests - sandboxBefore.requests);
    expect(after.byPurpose.helpers).toBe(before.byPurpose.helpers);
  });

  it('answers this UTC month with a projection, byBase most first', async () => {
    const usage = await apiCalls();
    expect(usage.month).toBe(new Date().toISOString().slice(0, 7));
    expect(usage.total).toBeGreaterThan(0);
    expect(usage.total).toBe(Object.values(usage.byPurpose).reduce((sum, calls) => sum + calls, 0));
    expect(usage.projected).toBeGreaterThanOrEqual(usage.total);
    const calls = usage.byBase.map((b) => b.calls);
    expect(calls).toEqual([...calls].sort((a, b) => b - a));
    expect((await apiCalls(t.accountId, { month: usage.month })).total).toBe(usage.total);
  });

  it('tags the upstream webhook of a new monitoring config as webhooks, and reading its changes as audit', async () => {
    const catalog = t.baseId(DEMO_BASES.catalog);
    const changeLog = t.baseId(DEMO_BASES.changeLog);
    const before = await apiCalls();
    await t.services.monitoringConfigs.create(
      t.accountId,
      parsed(monitoringConfigInput.create, { baseId: catalog, monitoringBaseId: changeLog }),
    );
    const afterCreate = await apiCalls();
    expect(afterCreate.byPurpose.webhooks - before.byPurpose.webhooks).toBe(1);
    expect(afterCreate.byPurpose.audit).toBe(before.byPurpose.audit);

    const watch = await t.services.watches.find({ baseId: catalog });
    const sandboxBefore = sandboxStats();
    await t.services.changeIngest.ingest(watch!.id);
    const sandboxAfter = sandboxStats();
    const afterIngest = await apiCalls();
    expect(afterIngest.byPurpose.audit - afterCreate.byPurpose.audit).toBe(sandboxAfter.requests - sandboxBefore.requests);
    expect(afterIngest.byPurpose.audit).toBeGreaterThan(afterCreate.byPurpose.audit);
  });

  it('refuses a malformed month and a month to come as invalid_request; a past month is its total', async () => {
    for (const month of ['2026-13', '2026-1', '26-01', '2026-01-01', 'now']) {
      expect(await refusal(() => apiCalls(t.accountId, { month })), month).toBe('invalid_request');
    }
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
    expect(await refusal(() => apiCalls(t.accountId, { month: next }))).toBe('invalid_request');
    expect(await apiCalls(t.accountId, { month: '2020-02' })).toEqual({
      month: '2020-02',
      total: 0,
      projected: 0,
      byPurpose: { count: 0, audit: 0, webhooks: 0, helpers: 0 },
      byBase: [],
    });
  });

  it('shows an account the calls of its own upstream user only', async () => {
    const ada = await connectedAccount('ada');
    const bob = await connectedAccount('bob');
    const sharedBefore = await apiCalls(t.other.accountId);
    const tracked = await track(ada.accountId, ada.baseId);
    const sandboxBefore = sandboxStats();
    await t.services.usageCounts.count(ada.accountId, tracked.id);
    const sandboxAfter = sandboxStats();

    const adas = await apiCalls(ada.accountId);
    expect(adas.byPurpose.count).toBe(sandboxAfter.byBase[ada.baseId]!.requests - (sandboxBefore.byBase[ada.baseId]?.requests ?? 0));
    expect(adas.byPurpose.count).toBeGreaterThan(0);
    expect(adas.byPurpose.helpers).toBeGreaterThan(0);
    expect(adas.byBase.map((b) => b.baseId)).toEqual([ada.baseId]);
    // Bob's user sent nothing (his token's check ran before the connection knew whose it was); the shared token's
    // accounts see none of Ada's calls.
    expect((await apiCalls(bob.accountId)).total).toBe(0);
    const { projected: _moves, ...shared } = await apiCalls(t.other.accountId);
    expect(shared).toEqual({ ...sharedBefore, projected: undefined });
  });
});

describe(withCallPurpose.name, () => {
  it('tags the requests sent inside it with the innermost purpose and counts them on every enclosing tally', async () => {
    const { upstream } = t.services;
    const catalog = t.baseId(DEMO_BASES.catalog);
    const before = await apiCalls();
    const outer: CallTally = { calls: 0 };
    const inner: CallTally = { calls: 0 };
    await withCallPurpose(
      'count',
      async () => {
        await upstream.getBaseSchema(catalog);
        await withCallPurpose('webhooks', () => Promise.all([upstream.listWebhooks(catalog), upstream.listBases()]), inner);
      },
      outer,
    );
    await upstream.listBases();
    const after = await apiCalls();
    expect({ outer: outer.calls, inner: inner.calls }).toEqual({ outer: 3, inner: 2 });
    expect(after.byPurpose.count - before.byPurpose.count).toBe(1);
    expect(after.byPurpose.webhooks - before.byPurpose.webhooks).toBe(2);
    expect(after.byPurpose.helpers - before.byPurpose.helpers).toBe(1);
    // listBases is no base's: in the total only.
    expect(callsTo(after, catalog) - callsTo(before, catalog)).toBe(2);
  });
});

describe(ApiCallLedgerService.name, () => {
  it('keeps the counts of a failed flush and stores them with the next one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'basewatch-ledger-'));
    const dataSource = await openDatabase({ type: 'sqlite', path: join(dir, 'ledger.sqlite') });
    const ledger = new ApiCallLedgerService(dataSource, { logger: createLogger('silent'), flushIntervalMs: 60_000 });
    try {
      const month = monthOf(new Date());
      ledger.record({ userKey: 'usrAda', baseId: 'appOne', purpose: 'count' });
      ledger.record({ userKey: 'usrAda', baseId: 'appOne', purpose: 'count' });
      ledger.record({ userKey: 'usrAda', purpose: 'helpers' });
      await dataSource.query('ALTER TABLE upstream_api_call RENAME TO upstream_api_call_away');
      await expect(ledger.flush()).rejects.toThrow();
      ledger.record({ userKey: 'usrAda', baseId: 'appOne', purpose: 'count' });
      await dataSource.query('ALTER TABLE upstream_api_call_away RENAME TO upstream_api_call');
      // A second process's counts add to the same rows.
      await dataSource.getRepository(UpstreamApiCall).insert({ month, userKey: 'usrAda', baseId: 'appOne', purpose: 'count', calls: 10 });

      expect(await ledger.month('usrAda', month)).toEqual({
        total: 14,
        byPurpose: { count: 13, audit: 0, webhooks: 0, helpers: 1 },
        byBase: [{ baseId: 'appOne', calls: 13 }],
      });
      await ledger.close();
      expect(await dataSource.getRepository(UpstreamApiCall).count()).toBe(2);
    } finally {
      await ledger.close();
      await dataSource.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
