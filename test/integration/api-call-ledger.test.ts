import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/database.js';
import { UpstreamApiCall } from '../../src/entities/index.js';
import { createLogger } from '../../src/logger.js';
import { ApiCallLedgerService, monthOf } from '../../src/services/usage-insight/api-call-ledger.service.js';
import { withCallPurpose, type CallTally } from '../../src/upstream/call-purpose.js';
import { DEMO_BASES, trackBase, upstreamBaseId } from '../support/factories.js';
import type { Http } from '../support/http.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import type { JsonBody } from '../support/json-body.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterEach(() => app.running.sandbox!.faults.reset());
afterAll(() => app?.close());

interface SandboxStats {
  requests: number;
  faultsInjected: number;
  byBase: Record<string, { requests: number; rateLimited: number }>;
}
const control = <T = JsonBody>(method: string, path: string, body?: unknown) => sandboxControl(app.url)<T>(method, path, body);
const sandboxStats = () => control<SandboxStats>('GET', 'stats');

async function apiCalls(http: Http, query = '') {
  const res = await http('GET', `/usage/api-calls${query}`);
  expect(res.status).toBe(200);
  return res.body as {
    month: string;
    total: number;
    projected: number;
    byPurpose: { count: number; audit: number; webhooks: number; helpers: number };
    byBase: Array<{ baseId: string; calls: number }>;
  };
}
const callsTo = (usage: Awaited<ReturnType<typeof apiCalls>>, baseId: string) => usage.byBase.find((b) => b.baseId === baseId)?.calls ?? 0;

/** A sandbox user with a base of its own, connected to a new account with its personal access token. */
async function connectedAccount(name: string) {
  const user = await control<{ id: string; token: string }>('POST', 'users', { email: `${name}@example.com` });
  const base = await control<{ id: string }>('POST', `users/${user.id}/bases`, { name: `${name}'s base` });
  const account = await app.newAccount(name);
  expect((await account.http('PUT', '/connection', { body: { token: user.token } })).status).toBe(200);
  return { ...account, userId: user.id, baseId: base.id };
}

describe('GET /usage/api-calls', () => {
  it('counts a usage count exactly as the sandbox tallied its requests, retries and 429s included', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog);
    // Some requests answered 429: the client waits out the lock-out and repeats, and both sides count
    // each try (the sandbox's draws are seeded).
    app.running.sandbox!.faults.update({ errorRate: 0.4, errorStatus: 429 });
    const sandboxBefore = await sandboxStats();
    const before = await apiCalls(app.http);

    expect((await app.http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);

    const sandboxAfter = await sandboxStats();
    const after = await apiCalls(app.http);
    const tallied = sandboxAfter.byBase[base.baseId]!.requests - (sandboxBefore.byBase[base.baseId]?.requests ?? 0);
    expect(sandboxAfter.faultsInjected - sandboxBefore.faultsInjected).toBeGreaterThan(0);
    // One schema read and ceil(records/100) pages a table, at least: the catalog has 3 tables and 410 records.
    expect(tallied).toBeGreaterThanOrEqual(1 + 6);
    expect(after.byPurpose.count - before.byPurpose.count).toBe(tallied);
    expect(callsTo(after, base.baseId) - callsTo(before, base.baseId)).toBe(tallied);
    expect(after.total - before.total).toBe(sandboxAfter.requests - sandboxBefore.requests);
    expect(after.byPurpose.helpers).toBe(before.byPurpose.helpers);
  });

  it('answers this UTC month with a projection, byBase most first, and the same through GraphQL', async () => {
    const usage = await apiCalls(app.http);
    expect(usage.month).toBe(new Date().toISOString().slice(0, 7));
    expect(usage.total).toBeGreaterThan(0);
    expect(usage.total).toBe(Object.values(usage.byPurpose).reduce((sum, calls) => sum + calls, 0));
    expect(usage.projected).toBeGreaterThanOrEqual(usage.total);
    const calls = usage.byBase.map((b) => b.calls);
    expect(calls).toEqual([...calls].sort((a, b) => b - a));
    expect((await apiCalls(app.http, `?month=${usage.month}`)).total).toBe(usage.total);
  });

  it('tags the upstream webhook of a new monitoring config as webhooks, and reading its changes as audit', async () => {
    const catalog = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    const changeLog = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
    const before = await apiCalls(app.http);
    const created = await app.http('POST', '/monitoring-config', { body: { baseId: catalog, monitoringBaseId: changeLog } });
    expect(created.status).toBe(201);
    const afterCreate = await apiCalls(app.http);
    expect(afterCreate.byPurpose.webhooks - before.byPurpose.webhooks).toBe(1);
    expect(afterCreate.byPurpose.audit).toBe(before.byPurpose.audit);

    const watch = await app.running.services.watches.find({ baseId: catalog });
    const sandboxBefore = await sandboxStats();
    await app.running.services.changeIngest.ingest(watch!.id);
    const sandboxAfter = await sandboxStats();
    const afterIngest = await apiCalls(app.http);
    expect(afterIngest.byPurpose.audit - afterCreate.byPurpose.audit).toBe(sandboxAfter.requests - sandboxBefore.requests);
    expect(afterIngest.byPurpose.audit).toBeGreaterThan(afterCreate.byPurpose.audit);
  });

  it('refuses a malformed month and a month to come with 400; a past month is its total', async () => {
    for (const month of ['2026-13', '2026-1', '26-01', '2026-01-01', 'now']) {
      const res = await app.http('GET', `/usage/api-calls?month=${month}`);
      expect(res.status, month).toBe(400);
      expect(res.body.code).toBe('invalid_request');
    }
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
    const future = await app.http('GET', `/usage/api-calls?month=${next}`);
    expect(future.status).toBe(400);
    expect(future.body.code).toBe('invalid_request');
    expect(await apiCalls(app.http, '?month=2020-02')).toEqual({
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
    const sharedBefore = await apiCalls(app.other.http);
    const tracked = await ada.http('POST', '/usage/bases', { body: { baseId: ada.baseId } });
    expect(tracked.status).toBe(201);
    const sandboxBefore = await sandboxStats();
    expect((await ada.http('POST', `/usage/bases/${tracked.body.base.id}/run`)).status).toBe(200);
    const sandboxAfter = await sandboxStats();

    const adas = await apiCalls(ada.http);
    expect(adas.byPurpose.count).toBe(sandboxAfter.byBase[ada.baseId]!.requests - (sandboxBefore.byBase[ada.baseId]?.requests ?? 0));
    expect(adas.byPurpose.count).toBeGreaterThan(0);
    expect(adas.byPurpose.helpers).toBeGreaterThan(0);
    expect(adas.byBase.map((b) => b.baseId)).toEqual([ada.baseId]);
    // Bob's user sent nothing (his token's check ran before the connection knew whose it was); the shared token's
    // accounts see none of Ada's calls.
    expect((await apiCalls(bob.http)).total).toBe(0);
    const { projected: _moves, ...shared } = await apiCalls(app.other.http);
    expect(shared).toEqual({ ...sharedBefore, projected: undefined });
  });
});

describe(withCallPurpose.name, () => {
  it('tags the requests sent inside it with the innermost purpose and counts them on every enclosing tally', async () => {
    const { upstream } = app.running.services;
    const catalog = await upstreamBaseId(app.http, DEMO_BASES.catalog);
    const before = await apiCalls(app.http);
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
    const after = await apiCalls(app.http);
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
