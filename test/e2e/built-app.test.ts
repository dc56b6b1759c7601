import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/services/credentials/api-key.js';
import { DEFAULT_SANDBOX_TOKEN } from '../../src/config.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { createHttp } from '../support/http.js';
import { builtServiceMain } from '../support/built-service.js';
import { startBuiltService as startBuilt } from '../support/processes.js';
import { sandboxControl } from '../support/sandbox-control.js';
import { startTestApp } from '../support/test-app.js';

const dir = mkdtempSync(join(tmpdir(), 'basewatch-built-'));

let main: string;
beforeAll(async () => {
  // The built app, not the sources: catches what only breaks under plain node (decorators, import cycles).
  main = await builtServiceMain();
}, 180_000);
const startBuiltService = (env: Record<string, string>) => startBuilt(env, main);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the built service (npm run build, then node …/src/main.js)', () => {
  it('prints a demo key once on a fresh database, and honours BOOTSTRAP_API_KEY', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'demo.sqlite')}` };
    const first = await startBuiltService(env);
    const key = /\n\s+(sk_[0-9A-Za-z]{43})\n/.exec(first.output())?.[1];
    expect(key, first.output()).toBeDefined();
    expect(first.output()).toContain(`curl -H "Authorization: Bearer ${key}" ${first.url}/airtable/bases`);
    expect(first.output()).toContain(`sandbox at ${first.url}/sandbox/airtable (Authorization: Bearer ${DEFAULT_SANDBOX_TOKEN})`);
    const sandboxBases = await fetch(`${first.url}/sandbox/airtable/v0/meta/bases`, {
      headers: { authorization: `Bearer ${DEFAULT_SANDBOX_TOKEN}` },
    });
    expect(sandboxBases.status).toBe(200);
    const bases = await createHttp(first.url, key)('GET', '/airtable/bases');
    expect(bases.body.bases.map((b: { name: string }) => b.name)).toEqual(expect.arrayContaining(Object.values(DEMO_BASES)));
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const bootstrapKey = generateApiKey();
    const second = await startBuiltService({ ...env, BOOTSTRAP_API_KEY: bootstrapKey });
    expect(second.output()).not.toMatch(/sk_[0-9A-Za-z]{43}/);
    expect((await createHttp(second.url, bootstrapKey)('GET', '/usage/bases')).status).toBe(200);
    expect((await createHttp(second.url, key)('GET', '/usage/bases')).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 60_000);

  it('on SIGTERM finishes the running count and its request, then exits 0 with the snapshot stored', async () => {
    const { service, env, apiKey, base, result } = await sigtermDuringCount('shutdown', 400, {});
    expect(result.status).toBe(200);
    expect(result.body.status).toBe('success');
    expect(await service.exited).toBe(0);
    await expect(fetch(`${service.url}/healthz`)).rejects.toThrow();

    const again = await startBuiltService(env);
    const latest = await createHttp(again.url, apiKey)('GET', `/usage/bases/${base.id}/snapshots/latest`);
    expect(latest.body.day.totals.recordCount).toBe(result.body.totalRecords);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 60_000);

  it('answers 503 unavailable to a count abandoned at the shutdown deadline, logs it, and exits 0', async () => {
    const { service, result } = await sigtermDuringCount('abandoned', 5_000, { SHUTDOWN_TIMEOUT_MS: '300' });
    expect(result.status).toBe(503);
    expect(result.body).toEqual({ code: 'unavailable', message: 'The service is shutting down: the count was abandoned' });
    expect(await service.exited).toBe(0);
    const abandonedLine = service
      .output()
      .split('\n')
      .find((line) => line.includes('running counts abandoned'));
    expect(JSON.parse(abandonedLine!)).toMatchObject({ level: 40, counts: 1, shutdownTimeoutMs: 300 });
  }, 60_000);
});

/** A built service counting the demo catalog, every upstream answer `latencyMs` late, sent SIGTERM 300 ms in. */
async function sigtermDuringCount(name: string, latencyMs: number, extraEnv: Record<string, string>) {
  const apiKey = generateApiKey();
  const env = { DATABASE_URL: `sqlite:${join(dir, `${name}.sqlite`)}`, BOOTSTRAP_API_KEY: apiKey, ...extraEnv };
  const service = await startBuiltService(env);
  const http = createHttp(service.url, apiKey);
  const base = await trackBase(http, DEMO_BASES.catalog);
  const faults = await fetch(`${service.url}/sandbox/airtable/_control/faults`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${DEFAULT_SANDBOX_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ latencyMs }),
  });
  expect(faults.status).toBe(200);
  const run = http('POST', `/usage/bases/${base.id}/run`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  service.child.kill('SIGTERM');
  return { service, env, apiKey, base, result: await run };
}

describe('the built service killed while reading upstream changes', () => {
  it('loses nothing and logs nothing twice after a SIGKILL while payloads are read (before the commit)', async () => {
    // The upstream lives in another process (this test's app and its sandbox), so the service can die and restart.
    const upstream = await startTestApp();
    try {
      const sandbox = upstream.running.sandbox!;
      sandbox.faults.update({ rateLimitPerSecond: 1_000 });
      const apiKey = generateApiKey();
      const env = {
        DATABASE_URL: `sqlite:${join(dir, 'audit-kill.sqlite')}`,
        BOOTSTRAP_API_KEY: apiKey,
        AIRTABLE_TOKEN: DEFAULT_SANDBOX_TOKEN,
        AIRTABLE_API_URL: `${upstream.url}/sandbox/airtable`,
        UPSTREAM_TIMEOUT_MS: '10000',
        JOBS_PROCESS_EVERY_MS: '50',
        // The killed process leaves its ingestion job locked: it is taken over once the lock has lapsed.
        JOBS_LOCK_LIFETIME_MS: '2000',
        AUDIT_POLL_INTERVAL_SECONDS: '1',
      };
      const bases = sandbox.store.listBases();
      const watched = bases.find((b) => b.name === DEMO_BASES.marketing)!;
      const log = bases.find((b) => b.name === DEMO_BASES.changeLog)!;
      const first = await startBuiltService(env);
      const http = createHttp(first.url, apiKey);
      const created = await http('POST', '/monitoring-config', { body: { baseId: watched.id, monitoringBaseId: log.id } });
      expect(created.status).toBe(201);
      const configId = created.body.config.id as string;

      // Payload reads now take 1.5 s: the service is killed while it holds the answer in flight, before any commit.
      sandbox.faults.update({ latencyMs: 1_500 });
      const table = watched.tables[0]!;
      const payloadReads = () => sandbox.stats.recent.filter((r) => r.path.includes('/payloads')).length;
      const readsBefore = payloadReads();
      sandbox.store.createRecords(
        watched.id,
        table.id,
        [1, 2, 3].map((i) => ({ [table.primaryFieldId]: `Kill test ${i}` })),
      );
      const reading = () => payloadReads() > readsBefore;
      const deadline = Date.now() + 10_000;
      while (!reading() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(reading()).toBe(true);
      expect((await http('GET', `/monitoring-config/${configId}/changes`)).body.records).toEqual([]);
      await new Promise((r) => setTimeout(r, 1_200));
      first.child.kill('SIGKILL');
      await first.exited;
      sandbox.faults.update({ latencyMs: 0 });

      const second = await startBuiltService(env);
      const again = createHttp(second.url, apiKey);
      const read = async () =>
        (await again('GET', `/monitoring-config/${configId}/changes`)).body.records as Array<{
          id: string;
          after: object;
          monitoringRecordId: string | null;
        }>;
      let records = await read();
      for (let i = 0; i < 200 && !(records.length >= 3 && records.every((r) => r.monitoringRecordId)); i += 1) {
        await new Promise((r) => setTimeout(r, 100));
        records = await read();
      }
      await new Promise((r) => setTimeout(r, 1_500));
      records = await read();
      expect(records.map((r) => Object.values(r.after)[0]).sort()).toEqual(['Kill test 1', 'Kill test 2', 'Kill test 3']);
      expect(sandbox.store.getTable(log.id, created.body.config.monitoringTableId)!.records.size).toBe(3);
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    } finally {
      await upstream.close();
    }
  }, 90_000);
});

describe('OAuth refresh across processes', () => {
  it('refreshes a rotated pair exactly once when two processes on one database both find it refused', async () => {
    // Process one: the test app (with the sandbox). Process two: the built service on the same database file.
    const lines: string[] = [];
    const app = await startTestApp({ LOG_LEVEL: 'info' }, { write: (line: string) => void lines.push(line) });
    try {
      const control = sandboxControl(app.url);
      const user = await control<{ id: string }>('POST', 'users', { email: 'two-processes@example.com' });
      const base = await control<{ id: string }>('POST', `users/${user.id}/bases`, { name: 'Two processes' });
      const start = await app.http('POST', '/connection/oauth/start');
      await control('PUT', 'oauth/consent', { userId: user.id, baseIds: [base.id] });
      const callback = new URL((await fetch(start.body.authorizeUrl, { redirect: 'manual' })).headers.get('location')!);
      // The browser that started the flow carries its cookie to the callback.
      const cookie = start.headers
        .getSetCookie()
        .find((c) => c.startsWith('basewatch_oauth='))!
        .split(';')[0]!;
      expect((await app.http('GET', `${callback.pathname}${callback.search}`, { key: null, headers: { cookie } })).status).toBe(200);
      const before = await app.running.services.accessTokens.tokenFor(app.accountId);

      const second = await startBuiltService({
        DATABASE_URL: `sqlite:${join(app.dir, 'test.sqlite')}`,
        AIRTABLE_TOKEN: DEFAULT_SANDBOX_TOKEN,
        AIRTABLE_API_URL: `${app.url}/sandbox/airtable`,
        AIRTABLE_OAUTH_CLIENT_ID: 'basewatch-sandbox',
        AIRTABLE_OAUTH_URL: `${app.url}/sandbox/airtable`,
        SCHEDULER_RUN_JOBS: 'false',
        LOG_LEVEL: 'info',
      });
      try {
        // Expired for the platform and, as stored, for both processes: each sets out to refresh before its call.
        await control('POST', 'tokens/expire', { userId: user.id });
        await app.running.dataSource.query('UPDATE upstream_connection SET access_expires_at = ?', [
          new Date(Date.now() - 1000).toISOString(),
        ]);
        const viaSecond = createHttp(second.url, app.apiKey);
        await viaSecond('GET', '/connection');
        // 20 upstream calls at once, half through each process.
        const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? viaSecond : app.http)('GET', '/airtable/bases')));
        expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 20 }, () => 200));
        for (const answer of answers) expect(answer.body.bases.map((b: { id: string }) => b.id)).toEqual([base.id]);
        // One refresh: the version moved by one, and the grant is still alive (a second refresh of the same pair
        // would have been refused and marked the connection).
        expect((await app.running.services.accessTokens.tokenFor(app.accountId)).version).toBe(before.version + 1);
        expect((await app.http('GET', '/connection')).body.connection).toMatchObject({ status: 'active', lastError: null });
        // Exactly one token request in both processes together: one "refreshed", no "recently refreshed" (409).
        const logged = [...lines, ...second.output().split('\n')].join('\n');
        expect(logged.match(/upstream access token refreshed/g)).toHaveLength(1);
        expect(logged).not.toMatch(/answered 409/);
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      await app.close();
    }
  }, 60_000);
});
