import { DateTime } from 'luxon';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { usageBaseInput } from '../../src/services/usage-base.input.js';
import { countLockOf } from '../support/count-lock.js';
import { DEMO_BASES } from '../support/factories.js';
import { expectedCounts, sumOf } from '../support/sandbox-totals.js';
import { parsed, refusal } from '../support/service-calls.js';
import { FAST_UPSTREAM, startTestServices, type TestServices } from '../support/test-services.js';

/** Counting a tracked base now (UsageCountService.count, behind POST /usage/bases/{id}/run), without HTTP. */

let t: TestServices;
const sandbox = () => t.sandbox;

/** The pace of requests is not under test here (FAST_UPSTREAM); faults.reset() brings the sandbox's limit back. */
const allowFastClient = () => sandbox().faults.update({ rateLimitPerSecond: 1_000 });

beforeAll(async () => {
  t = await startTestServices(FAST_UPSTREAM);
  allowFastClient();
});
afterEach(() => {
  sandbox().faults.reset();
  allowFastClient();
});
afterAll(() => t?.close());

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const lockOf = (usageBaseId: string) => countLockOf(t.dataSource, usageBaseId);
const snapshotRows = (usageBaseId: string) => t.dataSource.query('SELECT * FROM usage_snapshot WHERE usage_base_id = ?', [usageBaseId]);

/** A new account tracking an upstream base (by id), as POST /usage/bases does. */
async function tracked(baseId: string, extra: Record<string, unknown> = {}) {
  const { accountId } = await t.newAccount();
  const base = await t.services.usageBases.create(accountId, parsed(usageBaseInput.create, { baseId, ...extra }));
  return { accountId, id: base.id, baseId: base.baseId };
}
const run = (base: { accountId: string; id: string }) => t.services.usageCounts.count(base.accountId, base.id);
/** The newest day, as GET …/snapshots/latest reads it. */
const latest = async (base: { accountId: string; id: string }) =>
  (await t.services.snapshots.list(base.accountId, base.id, { limit: 1 })).days[0];
const history = async (base: { accountId: string; id: string }) =>
  (await t.services.snapshots.list(base.accountId, base.id, { limit: 30 })).days;

/** The AppError a call is refused with. */
async function failure(call: () => Promise<unknown>): Promise<AppError> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('UsageCountService.count', () => {
  it('counts every table: totals equal an independent sum over the sandbox data', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.catalog), { timezone: 'Pacific/Auckland' });
    const expected = expectedCounts(sandbox(), base.baseId);

    const result = await run(base);
    expect(result).toEqual({
      status: 'success',
      tablesProcessed: 3,
      totalRecords: sumOf(expected, 'recordCount'),
      totalAttachmentBytes: sumOf(expected, 'storageBytes'),
      totalFileCount: sumOf(expected, 'fileCount'),
      snapshotDate: DateTime.now().setZone('Pacific/Auckland').toISODate(),
    });
    expect(result.totalRecords).toBe(410);
    expect(result.totalFileCount).toBeGreaterThan(0);

    const day = await latest(base);
    expect({ date: day!.date, tables: day!.tables, totals: day!.totals }).toEqual({
      date: result.snapshotDate,
      tables: expected,
      totals: {
        recordCount: result.totalRecords,
        storageBytes: result.totalAttachmentBytes,
        fileCount: result.totalFileCount,
        tableCount: 3,
      },
    });
  });

  it('counts a table without attachment fields by its primary field, with zero storage', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.catalog));
    await run(base);
    const suppliers = (await latest(base))!.tables.find((table) => table.tableName === 'Suppliers');
    expect(suppliers).toMatchObject({ recordCount: 40, storageBytes: 0, fileCount: 0 });
  });

  it('pages through big tables with the minimum of requests (one schema read plus ceil(n/100) per table)', async () => {
    const big = sandbox().store.seedLargeBase({ name: 'Pages', tables: 3, recordsPerTable: 1_050, attachmentsPerRecord: 2 });
    const base = await tracked(big.id);
    const before = sandbox().stats.byBase.get(big.id)?.requests ?? 0;
    const result = await run(base);
    const expected = expectedCounts(sandbox(), big.id);
    expect(result).toMatchObject({
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
    const base = await tracked(huge.id);
    expect((await run(base)).totalAttachmentBytes).toBe(12_000_000_003);
  });

  it('replaces the day when counted twice on the same local day', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.marketing));
    const first = await run(base);
    const notes = sandbox().store.requireTable(base.baseId, 'Notes').table;
    sandbox().store.createRecords(base.baseId, notes.id, [{ Title: 'one more' }, { Title: 'and another' }]);
    const second = await run(base);
    expect(second.totalRecords).toBe(first.totalRecords + 2);
    expect(second.snapshotDate).toBe(first.snapshotDate);
    const days = await history(base);
    expect(days).toHaveLength(1);
    expect(days[0]!.totals.recordCount).toBe(second.totalRecords);
  });

  it('still ends with correct totals when the upstream answers 429s and 5xx on the way', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.catalog));
    const expected = expectedCounts(sandbox(), base.baseId);
    const rateLimitedBefore = sandbox().stats.rateLimited;
    const faultsBefore = sandbox().stats.faultsInjected;
    // The sandbox allows 2 requests/s while the client sends more: 429s and 300 ms lock-outs; and 50% 503s.
    sandbox().faults.update({ rateLimitPerSecond: 2, lockoutMs: 300, errorRate: 0.5, errorStatus: 503 });
    expect(await run(base)).toMatchObject({
      totalRecords: sumOf(expected, 'recordCount'),
      totalAttachmentBytes: sumOf(expected, 'storageBytes'),
      totalFileCount: sumOf(expected, 'fileCount'),
    });
    expect(sandbox().stats.rateLimited).toBeGreaterThan(rateLimitedBefore);
    expect(sandbox().stats.faultsInjected).toBeGreaterThan(faultsBefore);
  }, 60_000);

  it('fails with upstream_error when the upstream stays down, and leaves the previous snapshot as it was', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.marketing));
    await run(base);
    const before = await history(base);
    const rows = await snapshotRows(base.id);

    sandbox().faults.update({ errorRate: 1, errorStatus: 503 });
    const error = await failure(() => run(base));
    expect(error.code).toBe('upstream_error');
    expect(error.message).not.toMatch(/sandbox-token|Bearer/);

    expect(await history(base)).toEqual(before);
    expect(await snapshotRows(base.id)).toEqual(rows);
    sandbox().faults.update({ errorRate: 0 });
    expect(await refusal(() => run(base))).toBe('accepted');
  });

  it('refuses with conflict while a count of the same base runs, and counts again once it ended', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.catalog));
    sandbox().faults.update({ latencyMs: 150 });
    const first = run(base);
    await until(async () => (await lockOf(base.id)) !== null);
    const error = await failure(() => run(base));
    expect({ code: error.code, message: error.message }).toEqual({
      message: 'A count of this base is already running (a count cut off by a crash or kill holds it for at most 60 s)',
      code: 'conflict',
    });
    expect((await first).status).toBe('success');
    expect(await lockOf(base.id)).toBeNull();
    sandbox().faults.update({ latencyMs: 0 });
    expect(await refusal(() => run(base))).toBe('accepted');
  });

  it('tells a caller who used the upstream base id that the path takes the service id', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.catalog));
    const error = await failure(() => t.services.usageCounts.count(base.accountId, base.baseId));
    expect({ code: error.code, message: error.message }).toEqual({
      message: `Usage base not found: ${base.baseId} is an upstream base id; this path takes the service's id (the UUID in "id")`,
      code: 'not_found',
    });
  });

  it('counts different bases at the same time', async () => {
    const { accountId } = await t.newAccount();
    const track = (name: string) => t.services.usageBases.create(accountId, { baseId: t.baseId(name) });
    const a = await track(DEMO_BASES.catalog);
    const b = await track(DEMO_BASES.marketing);
    const results = await Promise.all([run({ accountId, id: a.id }), run({ accountId, id: b.id })]);
    expect(results.map((r) => r.status)).toEqual(['success', 'success']);
  });

  it('asks each table only for its attachment fields, or for the primary field when it has none', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.catalog));
    sandbox().stats.recent.length = 0;
    await run(base);
    for (const table of sandbox().store.getBase(base.baseId)!.tables) {
      const attachmentFields = table.fields.filter((f) => f.type === 'multipleAttachments').map((f) => f.id);
      const expected = attachmentFields.length > 0 ? attachmentFields : [table.primaryFieldId];
      const listings = sandbox().stats.recent.filter((r) => r.path === `/v0/${base.baseId}/${table.id}`);
      expect(listings.length).toBeGreaterThan(0);
      for (const listing of listings) expect(listing.fields).toEqual(expected);
    }
  });

  it('restarts a table whose list iterator expired mid-count and still ends with exact totals', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.catalog));
    const expected = expectedCounts(sandbox(), base.baseId);
    const products = sandbox().store.requireTable(base.baseId, 'Products').table;
    sandbox().faults.update({ latencyMs: 100 });
    sandbox().stats.recent.length = 0;
    const counting = run(base);
    // Once the first page of Products was asked for, forget every iterator: the next page meets a 422.
    await until(() => sandbox().stats.recent.some((r) => r.path === `/v0/${base.baseId}/${products.id}`));
    await new Promise((resolve) => setTimeout(resolve, 150));
    sandbox().faults.expireIterators();
    const result = await counting;
    expect(result.totalRecords).toBe(sumOf(expected, 'recordCount'));
    expect(result.totalAttachmentBytes).toBe(sumOf(expected, 'storageBytes'));
    expect(result.totalFileCount).toBe(sumOf(expected, 'fileCount'));
    const productListings = sandbox().stats.recent.filter((r) => r.path === `/v0/${base.baseId}/${products.id}`);
    expect(productListings.length).toBeGreaterThan(Math.ceil(250 / 100));
  });

  it('fails with upstream_error when a table fails midway, writing nothing of the partial count', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.marketing));
    await run(base);
    const rows = await snapshotRows(base.id);
    const assets = sandbox().store.requireTable(base.baseId, 'Assets').table;
    sandbox().faults.update({ latencyMs: 200 });
    sandbox().stats.recent.length = 0;
    const counting = run(base);
    // The schema was read and the tables' first pages are waiting out the latency: now a table disappears.
    await until(() => sandbox().stats.recent.some((r) => r.path === `/v0/${base.baseId}/${assets.id}`));
    sandbox().store.deleteTable(base.baseId, assets.id);
    expect(await refusal(() => counting)).toBe('upstream_error');
    expect(await snapshotRows(base.id)).toEqual(rows);
  });

  it('is not_found when the base is deleted while it is counted, and stores nothing', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.catalog));
    sandbox().faults.update({ latencyMs: 150 });
    const counting = run(base);
    await until(async () => (await lockOf(base.id)) !== null);
    await t.services.usageBases.remove(base.accountId, base.id);
    expect(await refusal(() => counting)).toBe('not_found');
    const left = await t.dataSource.query('SELECT COUNT(*) AS n FROM usage_snapshot WHERE usage_base_id = ?', [base.id]);
    expect(Number(left[0].n)).toBe(0);
  });

  it('is not_found for another account’s base and an unknown id', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.marketing));
    expect(await refusal(() => t.services.usageCounts.count(t.accountId, base.id))).toBe('not_found');
    expect(await refusal(() => t.services.usageCounts.count(t.accountId, '00000000-0000-4000-8000-000000000000'))).toBe('not_found');
    expect(await latest(base)).toBeUndefined();
  });

  it('counts an empty base as zero tables', async () => {
    const base = await tracked(t.baseId(DEMO_BASES.changeLog));
    expect(await run(base)).toMatchObject({ tablesProcessed: 0, totalRecords: 0, totalAttachmentBytes: 0, totalFileCount: 0 });
  });
});
