import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countLockOf } from '../support/count-lock.js';
import { DEMO_BASES, trackBase } from '../support/factories.js';
import { expectedCounts, sumOf } from '../support/sandbox-totals.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
const sandbox = () => app.running.sandbox!;

beforeAll(async () => {
  app = await startTestApp();
});
afterEach(() => sandbox().faults.reset());
afterAll(() => app.close());

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const lockOf = (usageBaseId: string) => countLockOf(app.running.dataSource, usageBaseId);

describe('POST /usage/bases/{id}/run', () => {
  it('counts every table: totals equal an independent sum over the sandbox data', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog, { timezone: 'Pacific/Auckland' });
    const expected = expectedCounts(sandbox(), base.baseId);

    const res = await http('POST', `/usage/bases/${base.id}/run`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      tablesProcessed: 3,
      totalRecords: sumOf(expected, 'recordCount'),
      totalAttachmentBytes: sumOf(expected, 'storageBytes'),
      totalFileCount: sumOf(expected, 'fileCount'),
      snapshotDate: DateTime.now().setZone('Pacific/Auckland').toISODate(),
    });
    expect(res.body.totalRecords).toBe(410);
    expect(res.body.totalFileCount).toBeGreaterThan(0);

    const latest = await http('GET', `/usage/bases/${base.id}/snapshots/latest`);
    expect(latest.body.day).toEqual({
      date: res.body.snapshotDate,
      tables: expected,
      totals: {
        recordCount: res.body.totalRecords,
        storageBytes: res.body.totalAttachmentBytes,
        fileCount: res.body.totalFileCount,
        tableCount: 3,
      },
    });
  });

  it('counts a table without attachment fields by its primary field, with zero storage', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    await http('POST', `/usage/bases/${base.id}/run`);
    const latest = await http('GET', `/usage/bases/${base.id}/snapshots/latest`);
    const suppliers = latest.body.day.tables.find((t: { tableName: string }) => t.tableName === 'Suppliers');
    expect(suppliers).toMatchObject({ recordCount: 40, storageBytes: 0, fileCount: 0 });
  });

  it('pages through big tables with the minimum of requests (one schema read plus ceil(n/100) per table)', async () => {
    const big = sandbox().store.seedLargeBase({ name: 'Pages', tables: 3, recordsPerTable: 1_050, attachmentsPerRecord: 2 });
    // This test counts requests, so none may be a retry: on a loaded CI machine an event-loop stall can bunch the
    // arrivals of 6 correctly spaced requests into one second and the sandbox would lock the base out for 30 s.
    // The client's pacing is tested on its own (test/upstream/rate-limiter.test.ts, the count benchmark).
    sandbox().faults.update({ rateLimitPerSecond: 1_000 });
    const { http } = await app.newAccount();
    const base = await trackBase(http, 'Pages');
    const before = sandbox().stats.byBase.get(big.id)?.requests ?? 0;
    const res = await http('POST', `/usage/bases/${base.id}/run`);
    const expected = expectedCounts(sandbox(), big.id);
    expect(res.body).toMatchObject({
      tablesProcessed: 3,
      totalRecords: 3_150,
      totalFileCount: 6_300,
      totalAttachmentBytes: sumOf(expected, 'storageBytes'),
    });
    expect(sandbox().stats.byBase.get(big.id)!.requests - before).toBe(1 + 3 * 11);
  });

  it('sums storage beyond 2^31 bytes exactly', async () => {
    const huge = sandbox().store.addBase({
      name: 'Huge files',
      tables: [
        {
          name: 'Videos',
          fields: [
            { name: 'Name', type: 'singleLineText' },
            { name: 'Clip', type: 'multipleAttachments' },
          ],
          records: Array.from({ length: 3 }, (_, i) => ({
            Name: `clip ${i}`,
            Clip: [{ url: `https://example.com/${i}.mp4`, size: 4_000_000_000 + i }],
          })),
        },
      ],
    });
    const { http } = await app.newAccount();
    const base = await trackBase(http, huge.name);
    const res = await http('POST', `/usage/bases/${base.id}/run`);
    expect(res.body.totalAttachmentBytes).toBe(12_000_000_003);
  });

  it('replaces the day when counted twice on the same local day', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.marketing);
    const first = await http('POST', `/usage/bases/${base.id}/run`);
    const notes = sandbox().store.requireTable(base.baseId, 'Notes').table;
    sandbox().store.createRecords(base.baseId, notes.id, [{ Title: 'one more' }, { Title: 'and another' }]);
    const second = await http('POST', `/usage/bases/${base.id}/run`);
    expect(second.body.totalRecords).toBe(first.body.totalRecords + 2);
    expect(second.body.snapshotDate).toBe(first.body.snapshotDate);
    const history = await http('GET', `/usage/bases/${base.id}/snapshots`);
    expect(history.body.days).toHaveLength(1);
    expect(history.body.days[0].totals.recordCount).toBe(second.body.totalRecords);
  });

  it('still ends with correct totals when the upstream answers 429s and 5xx on the way', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    const expected = expectedCounts(sandbox(), base.baseId);
    const rateLimitedBefore = sandbox().stats.rateLimited;
    const faultsBefore = sandbox().stats.faultsInjected;
    // The sandbox allows 2 requests/s while the client sends 5/s: 429s and 300 ms lock-outs; and 50% 503s.
    sandbox().faults.update({ rateLimitPerSecond: 2, lockoutMs: 300, errorRate: 0.5, errorStatus: 503 });
    const res = await http('POST', `/usage/bases/${base.id}/run`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      totalRecords: sumOf(expected, 'recordCount'),
      totalAttachmentBytes: sumOf(expected, 'storageBytes'),
      totalFileCount: sumOf(expected, 'fileCount'),
    });
    expect(sandbox().stats.rateLimited).toBeGreaterThan(rateLimitedBefore);
    expect(sandbox().stats.faultsInjected).toBeGreaterThan(faultsBefore);
  }, 60_000);

  it('answers 502 when the upstream stays down, and leaves the previous snapshot as it was', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.marketing);
    expect((await http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
    const before = await http('GET', `/usage/bases/${base.id}/snapshots`);
    const rows = await app.running.dataSource.query('SELECT * FROM usage_snapshot WHERE usage_base_id = ?', [base.id]);

    sandbox().faults.update({ errorRate: 1, errorStatus: 503 });
    const res = await http('POST', `/usage/bases/${base.id}/run`);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: expect.any(String), code: 'upstream_error' });
    expect(res.text).not.toMatch(/sandbox-token|Bearer/);

    expect(await http('GET', `/usage/bases/${base.id}/snapshots`)).toMatchObject({ body: before.body });
    expect(await app.running.dataSource.query('SELECT * FROM usage_snapshot WHERE usage_base_id = ?', [base.id])).toEqual(rows);
    sandbox().faults.reset();
    expect((await http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
  });

  it('answers 409 while a count of the same base runs, and counts again once it ended', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    sandbox().faults.update({ latencyMs: 150 });
    const first = http('POST', `/usage/bases/${base.id}/run`);
    await until(async () => (await lockOf(base.id)) !== null);
    const second = await http('POST', `/usage/bases/${base.id}/run`);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      message: 'A count of this base is already running (a count cut off by a crash or kill holds it for at most 60 s)',
      code: 'conflict',
    });
    expect((await first).status).toBe(200);
    expect(await lockOf(base.id)).toBeNull();
    sandbox().faults.reset();
    expect((await http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
  });

  it('tells a caller who used the upstream base id that the path takes the service id', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    const res = await http('POST', `/usage/bases/${base.baseId}/run`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: `Usage base not found: ${base.baseId} is an upstream base id; this path takes the service's id (the UUID in "id")`,
      code: 'not_found',
    });
  });

  it('counts different bases at the same time', async () => {
    const { http } = await app.newAccount();
    const a = await trackBase(http, DEMO_BASES.catalog);
    const b = await trackBase(http, DEMO_BASES.marketing);
    const [ra, rb] = await Promise.all([http('POST', `/usage/bases/${a.id}/run`), http('POST', `/usage/bases/${b.id}/run`)]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
  });

  it('asks each table only for its attachment fields, or for the primary field when it has none', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    sandbox().stats.recent.length = 0;
    await http('POST', `/usage/bases/${base.id}/run`);
    for (const table of sandbox().store.getBase(base.baseId)!.tables) {
      const attachmentFields = table.fields.filter((f) => f.type === 'multipleAttachments').map((f) => f.id);
      const expected = attachmentFields.length > 0 ? attachmentFields : [table.primaryFieldId];
      const listings = sandbox().stats.recent.filter((r) => r.path === `/v0/${base.baseId}/${table.id}`);
      expect(listings.length).toBeGreaterThan(0);
      for (const listing of listings) expect(listing.fields).toEqual(expected);
    }
  });

  it('restarts a table whose list iterator expired mid-count and still ends with exact totals', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    const expected = expectedCounts(sandbox(), base.baseId);
    const products = sandbox().store.requireTable(base.baseId, 'Products').table;
    sandbox().faults.update({ latencyMs: 100 });
    sandbox().stats.recent.length = 0;
    const run = http('POST', `/usage/bases/${base.id}/run`);
    // Once the first page of Products was asked for, forget every iterator: the next page meets a 422.
    await until(() => sandbox().stats.recent.some((r) => r.path === `/v0/${base.baseId}/${products.id}`));
    await new Promise((resolve) => setTimeout(resolve, 150));
    sandbox().faults.expireIterators();
    const res = await run;
    expect(res.status).toBe(200);
    expect(res.body.totalRecords).toBe(sumOf(expected, 'recordCount'));
    expect(res.body.totalAttachmentBytes).toBe(sumOf(expected, 'storageBytes'));
    expect(res.body.totalFileCount).toBe(sumOf(expected, 'fileCount'));
    const productListings = sandbox().stats.recent.filter((r) => r.path === `/v0/${base.baseId}/${products.id}`);
    expect(productListings.length).toBeGreaterThan(Math.ceil(250 / 100));
  });

  it('answers 502 when a table fails midway, writing nothing of the partial count', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.marketing);
    expect((await http('POST', `/usage/bases/${base.id}/run`)).status).toBe(200);
    const rows = await app.running.dataSource.query('SELECT * FROM usage_snapshot WHERE usage_base_id = ?', [base.id]);
    const assets = sandbox().store.requireTable(base.baseId, 'Assets').table;
    sandbox().faults.update({ latencyMs: 200 });
    sandbox().stats.recent.length = 0;
    const run = http('POST', `/usage/bases/${base.id}/run`);
    // The schema was read and the tables' first pages are waiting out the latency: now a table disappears.
    await until(() => sandbox().stats.recent.some((r) => r.path === `/v0/${base.baseId}/${assets.id}`));
    sandbox().store.deleteTable(base.baseId, assets.id);
    const res = await run;
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('upstream_error');
    expect(await app.running.dataSource.query('SELECT * FROM usage_snapshot WHERE usage_base_id = ?', [base.id])).toEqual(rows);
  });

  it('answers 404 when the base is deleted while it is counted, and stores nothing', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.catalog);
    sandbox().faults.update({ latencyMs: 150 });
    const run = http('POST', `/usage/bases/${base.id}/run`);
    await until(async () => (await lockOf(base.id)) !== null);
    expect((await http('DELETE', `/usage/bases/${base.id}`)).status).toBe(204);
    const res = await run;
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const left = await app.running.dataSource.query('SELECT COUNT(*) AS n FROM usage_snapshot WHERE usage_base_id = ?', [base.id]);
    expect(Number(left[0].n)).toBe(0);
  });

  it('answers 404 for another account’s base and an unknown id', async () => {
    const base = await trackBase(app.other.http, DEMO_BASES.marketing);
    expect((await app.http('POST', `/usage/bases/${base.id}/run`)).status).toBe(404);
    expect((await app.http('POST', '/usage/bases/00000000-0000-4000-8000-000000000000/run')).status).toBe(404);
    expect((await app.other.http('GET', `/usage/bases/${base.id}/snapshots/latest`)).body.day).toBeNull();
  });

  it('counts an empty base as zero tables', async () => {
    const { http } = await app.newAccount();
    const base = await trackBase(http, DEMO_BASES.changeLog);
    const res = await http('POST', `/usage/bases/${base.id}/run`);
    expect(res.body).toMatchObject({ tablesProcessed: 0, totalRecords: 0, totalAttachmentBytes: 0, totalFileCount: 0 });
  });
});
