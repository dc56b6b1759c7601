import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_URL, admin } from '../support/postgres.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** PostgreSQL runs on this machine's usual port; the test makes and drops a database of its own. */
const database = `basewatch_test_${randomBytes(4).toString('hex')}`;

const available = await admin('SELECT 1');
let app: TestApp;

describe.skipIf(!available)(`on PostgreSQL (${ADMIN_URL.replace(/\/\/[^@]*@/, '//')})`, () => {
  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    app = await startTestApp({ DATABASE_URL: url.toString() });
  });
  afterAll(async () => {
    await app?.close();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it('migrates, authenticates, counts and pages snapshots the same as on SQLite', async () => {
    const base = await trackBase(app.http, DEMO_BASES.catalog, { timezone: 'Europe/Berlin' });
    const run = await app.http('POST', `/usage/bases/${base.id}/run`);
    expect(run.status).toBe(200);
    expect(run.body.tablesProcessed).toBe(3);
    expect(run.body.totalRecords).toBeGreaterThan(0);
    await app.running.services.snapshots.record(base.id, '2020-01-01', [], new Date());
    const page = await app.http('GET', `/usage/bases/${base.id}/snapshots?limit=1`);
    expect(page.body.days[0]).toMatchObject({ date: run.body.snapshotDate, totals: { recordCount: run.body.totalRecords } });
    expect(typeof page.body.days[0].totals.storageBytes).toBe('number');
    const older = await app.http('GET', `/usage/bases/${base.id}/snapshots?cursor=${page.body.nextCursor}`);
    expect(older.body.days.map((d: { date: string }) => d.date)).toEqual(['2020-01-01']);
    expect((await app.http('POST', '/usage/bases', { body: { baseId: base.baseId } })).status).toBe(409);
    expect((await app.other.http('GET', `/usage/bases/${base.id}/snapshots`)).status).toBe(404);
    // Limits past 2^31 (bigint) come back as numbers.
    await app.http('PUT', `/usage/bases/${base.id}/limits`, { body: { plan: 'enterprise_scale' } });
    expect((await app.http('GET', `/usage/bases/${base.id}/limits`)).body.limits).toMatchObject({
      recordLimit: 500_000,
      storageLimitBytes: 1_000 * 1024 ** 3,
    });
    // The API-call ledger's upsert adds a second flush to the first's rows: both counts, as the sandbox tallied them.
    await app.http('GET', '/usage/api-calls');
    expect((await app.http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
    expect((await app.http('GET', '/usage/api-calls')).body.byPurpose.count).toBe(
      app.running.sandbox!.stats.byBase.get(base.baseId)!.requests,
    );
    // Alerts (bigint values, generated seq) and the count's cost, with the counting view's boolean columns.
    await app.http('PUT', `/usage/bases/${base.id}/limits`, { body: { recordLimit: run.body.totalRecords, thresholds: [50, 100] } });
    expect((await app.http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
    const alerts = (await app.http('GET', `/usage/alerts?baseId=${base.baseId}&limit=1`)).body;
    expect(alerts.alerts[0]).toMatchObject({ threshold: 100, value: run.body.totalRecords, percent: 100 });
    expect(
      (await app.http('GET', `/usage/alerts?baseId=${base.baseId}&cursor=${alerts.nextCursor}`)).body.alerts.map(
        (a: { threshold: number }) => a.threshold,
      ),
    ).toEqual([50]);
    const counting = (await app.http('GET', `/usage/bases/${base.id}/counting`)).body.counting;
    expect(counting.days[0]).toMatchObject({ carriedOver: false, apiCalls: expect.any(Number) });
    expect((await app.http('GET', `/usage/bases/${base.id}/forecast`)).body.forecasts[0]).toMatchObject({
      status: 'ok',
      current: run.body.totalRecords,
      reachesOn: run.body.snapshotDate,
    });
    expect((await app.http('DELETE', `/usage/bases/${base.id}`)).status).toBe(204);
  });
});

if (!available) {
  describe('on PostgreSQL', () => {
    it.skip(`skipped: no PostgreSQL server answered at ${ADMIN_URL.replace(/\/\/[^@]*@/, '//')}`, () => undefined);
  });
}
