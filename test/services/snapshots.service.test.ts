import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotInput } from '../../src/services/snapshot.input.js';
import { usageBaseInput } from '../../src/services/usage-base.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { asQuery, parsed, refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** The snapshot history's rules (SnapshotService.listOf behind UsageBaseService.get), without HTTP. */

let t: TestServices;
let base: { id: string; baseId: string };
/** 400 counted days, newest first, ending 2026-11-20. */
const days = Array.from({ length: 400 }, (_, i) => DateTime.fromISO('2026-11-20').minus({ days: i }).toISODate() as string);

const track = async (name: string, accountId = t.accountId) =>
  t.services.usageBases.create(accountId, parsed(usageBaseInput.create, { baseId: t.baseId(name) }));

beforeAll(async () => {
  t = await startTestServices();
  base = await track(DEMO_BASES.catalog);
  for (const [i, date] of days.entries()) {
    const tables = [
      { tableId: 'tblAAAAAAAAAAAAAA', tableName: 'A', recordCount: i, storageBytes: i * 3_000_000_000, fileCount: i * 2 },
      { tableId: 'tblBBBBBBBBBBBBBB', tableName: 'B', recordCount: 1, storageBytes: 0, fileCount: 0 },
    ];
    await t.services.snapshots.record(base.id, date, tables, new Date());
  }
});
afterAll(() => t?.close());

/** One page as the route reads it: the base for the account, then the query as a URL carries it, parsed by its schema. */
async function page(usageBaseId: string, query: Record<string, string | number> = {}, accountId = t.accountId) {
  const tracked = await t.services.usageBases.get(accountId, usageBaseId);
  const answer = await t.services.snapshots.listOf(tracked, parsed(snapshotInput.list, asQuery(query)));
  return { ...answer, dates: answer.days.map((d) => d.date) };
}

/** The messages the list's input schema refuses a query with. */
const problems = (query: Record<string, string>) => {
  const result = snapshotInput.list.safeParse(query);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('SnapshotService.listOf', () => {
  it('gives 30 days newest first by default, each with its tables and totals', async () => {
    const answer = await page(base.id);
    expect(answer.baseId).toBe(base.baseId);
    expect(answer.dates).toEqual(days.slice(0, 30));
    expect(answer.nextCursor).toBe(days[29]);
    const day = answer.days[1]!;
    expect(day.tables).toEqual([
      { tableId: 'tblAAAAAAAAAAAAAA', tableName: 'A', recordCount: 1, storageBytes: 3_000_000_000, fileCount: 2 },
      { tableId: 'tblBBBBBBBBBBBBBB', tableName: 'B', recordCount: 1, storageBytes: 0, fileCount: 0 },
    ]);
    expect(day.totals).toEqual({ recordCount: 2, storageBytes: 3_000_000_000, fileCount: 2, tableCount: 2 });
  });

  it('honours limit 1 and limit 365', async () => {
    const one = await page(base.id, { limit: 1 });
    expect(one.dates).toEqual([days[0]]);
    expect(one.nextCursor).toBe(days[0]);
    const year = await page(base.id, { limit: 365 });
    expect(year.dates).toEqual(days.slice(0, 365));
    const rest = await page(base.id, { limit: 365, cursor: year.nextCursor! });
    expect(rest.dates).toEqual(days.slice(365));
    expect(rest.nextCursor).toBeUndefined();
  });

  it('walks the whole history with a cursor, meeting each day exactly once, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const answer = await page(base.id, { limit: 7, ...(cursor ? { cursor } : {}) });
      seen.push(...answer.dates);
      cursor = answer.nextCursor;
    } while (cursor);
    expect(seen).toEqual(days);
  });

  it('bounds days by from and to, both inclusive, also while paging', async () => {
    const first = await page(base.id, { from: '2026-03-01', to: '2026-03-31', limit: 20 });
    expect(first.dates).toEqual(days.filter((d) => d >= '2026-03-01' && d <= '2026-03-31').slice(0, 20));
    const next = await page(base.id, { from: '2026-03-01', to: '2026-03-31', limit: 20, cursor: first.nextCursor! });
    expect(next.dates).toEqual(days.filter((d) => d >= '2026-03-01' && d <= '2026-03-11'));
    expect(next.nextCursor).toBeUndefined();
    expect((await page(base.id, { from: '2026-03-05', to: '2026-03-05' })).dates).toEqual(['2026-03-05']);
    const empty = await page(base.id, { from: '2020-01-01', to: '2020-12-31' });
    expect({ baseId: empty.baseId, days: empty.days, nextCursor: empty.nextCursor }).toEqual({
      baseId: base.baseId,
      days: [],
      nextCursor: undefined,
    });
  });

  it('leaves uncounted days out instead of filling zeros', async () => {
    const account = await t.newAccount();
    const other = await track(DEMO_BASES.marketing, account.accountId);
    for (const date of ['2026-01-01', '2026-01-03', '2026-01-07']) {
      await t.services.snapshots.record(other.id, date, [], new Date());
    }
    const answer = await page(other.id, {}, account.accountId);
    expect(answer.dates).toEqual(['2026-01-07', '2026-01-03', '2026-01-01']);
    expect(answer.days[0]!.totals).toEqual({ recordCount: 0, storageBytes: 0, fileCount: 0, tableCount: 0 });
  });

  it('gives the newest day as a page of one, and no day before the first count', async () => {
    expect((await page(base.id, { limit: 1 })).dates).toEqual([days[0]]);
    const account = await t.newAccount();
    const fresh = await track(DEMO_BASES.changeLog, account.accountId);
    expect((await page(fresh.id, { limit: 1 }, account.accountId)).days).toEqual([]);
  });

  it('shows a newly recorded day at once (every recorded day bumps the version its cached pages are kept under)', async () => {
    const account = await t.newAccount();
    const tracked = await track(DEMO_BASES.marketing, account.accountId);
    await t.services.snapshots.record(tracked.id, '2026-01-01', [], new Date());
    expect((await page(tracked.id, {}, account.accountId)).dates).toEqual(['2026-01-01']);
    await t.services.snapshots.record(tracked.id, '2026-01-02', [], new Date());
    expect((await page(tracked.id, {}, account.accountId)).dates).toEqual(['2026-01-02', '2026-01-01']);
  });

  it.each([
    'from=2026-02-30',
    'to=2026-1-1',
    'cursor=yesterday',
    'from=2026-11-21T00:00:00Z',
    'limit=0',
    'limit=366',
    'limit=ten',
    'limit=1.5',
    'from=2026-03-02&to=2026-03-01',
  ])('refuses %s as invalid_request', async (query) => {
    expect(await refusal(() => page(base.id, Object.fromEntries(new URLSearchParams(query))))).toBe('invalid_request');
  });

  it.each(['limit=-1', 'limit=0', 'limit=366'])('says the range of limit for %s', (query) => {
    expect(problems(Object.fromEntries(new URLSearchParams(query)))).toEqual(['limit: must be a whole number from 1 to 365']);
  });

  it('ignores unknown query parameters', async () => {
    expect((await page(base.id, { limit: 2, colour: 'red' })).dates).toEqual(days.slice(0, 2));
  });

  it('is not_found for another account, an unknown id and a malformed id', async () => {
    for (const [accountId, id] of [
      [t.other.accountId, base.id],
      [t.accountId, '00000000-0000-4000-8000-000000000000'],
      [t.accountId, 'not-a-uuid'],
    ] as const) {
      expect(await refusal(() => page(id, {}, accountId))).toBe('not_found');
    }
  });
});
