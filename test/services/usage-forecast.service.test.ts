import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TableCount } from '../../src/entities/index.js';
import { localDay } from '../../src/services/calendar.js';
import { usageBaseInput } from '../../src/services/usage-base.input.js';
import { usageLimitsInput } from '../../src/services/usage-limits/usage-limits.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed, refusal } from '../support/service-calls.js';
import { startTestServices, type TestServices } from '../support/test-services.js';

/** UsageForecastService.get (GET /usage/bases/{id}/forecast) on histories written through the snapshot service, ending today. */
describe('usage forecast', () => {
  let t: TestServices;
  beforeAll(async () => {
    t = await startTestServices();
  });
  afterAll(() => t?.close());
  // Each history is a demo base tracked afresh.
  const tracked: string[] = [];
  afterEach(async () => {
    for (const id of tracked.splice(0)) await t.services.usageBases.remove(t.accountId, id);
  });

  const DAY = 86_400_000;
  const today = () => localDay(new Date(), 'UTC');
  const dayOffset = (days: number) => new Date(Date.parse(`${today()}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

  /** A base with `records(i)` records and `bytes(i)` bytes on day i of the last `days` days (i = days − 1 is today). */
  async function baseWithHistory(days: number, records: (i: number) => number, bytes: (i: number) => number = () => 0) {
    const name = [DEMO_BASES.catalog, DEMO_BASES.marketing, DEMO_BASES.changeLog][tracked.length]!;
    const base = await t.services.usageBases.create(
      t.accountId,
      parsed(usageBaseInput.create, { baseId: t.baseId(name), timezone: 'UTC' }),
    );
    tracked.push(base.id);
    for (let i = 0; i < days; i += 1) {
      const table: TableCount = {
        tableId: 'tblAAAAAAAAAAAAAA',
        tableName: 'T',
        recordCount: records(i),
        storageBytes: bytes(i),
        fileCount: 0,
      };
      await t.services.snapshots.record(base.id, dayOffset(i - days + 1), [table], new Date());
    }
    return base;
  }
  const setLimits = (usageBaseId: string, body: Record<string, unknown>) =>
    t.services.usageLimits.update(t.accountId, usageBaseId, parsed(usageLimitsInput.update, body));
  const forecastOf = (usageBaseId: string) => t.services.usageForecasts.get(t.accountId, usageBaseId);

  it('projects linear growth to the exact day, for records and storage', async () => {
    // 1,000 + 100 a day: 2,900 today, so 5,000 is 21 days out; storage 1 MB a day toward 100 MB, 70 days out.
    const base = await baseWithHistory(
      20,
      (i) => 1_000 + 100 * i,
      (i) => 10_000_000 + 1_000_000 * i,
    );
    await setLimits(base.id, { recordLimit: 5_000, storageLimitBytes: 100_000_000 });
    const { baseId, forecasts } = await forecastOf(base.id);
    expect(baseId).toBe(base.baseId);
    expect(forecasts[0]).toMatchObject({
      metric: 'records',
      limit: 5_000,
      current: 2_900,
      dailyGrowth: 100,
      reachesOn: dayOffset(21),
      status: 'ok',
    });
    expect(forecasts[1]).toMatchObject({
      metric: 'storage',
      limit: 100_000_000,
      current: 29_000_000,
      dailyGrowth: 1_000_000,
      reachesOn: dayOffset(71),
      status: 'ok',
    });
    for (const forecast of forecasts) {
      expect(String(forecast.earliest) <= String(forecast.reachesOn)).toBe(true);
      expect(String(forecast.latest) >= String(forecast.reachesOn)).toBe(true);
    }
  });

  it('answers flat and shrinking with not_within_a_year, and no limit with no_limit', async () => {
    const flat = await baseWithHistory(15, () => 700);
    await setLimits(flat.id, { plan: 'free' });
    expect((await forecastOf(flat.id)).forecasts[0]).toMatchObject({
      status: 'not_within_a_year',
      reachesOn: null,
      current: 700,
      dailyGrowth: 0,
    });
    const shrinking = await baseWithHistory(15, (i) => 900 - 10 * i);
    await setLimits(shrinking.id, { plan: 'free' });
    expect((await forecastOf(shrinking.id)).forecasts[0]).toMatchObject({ status: 'not_within_a_year', reachesOn: null, dailyGrowth: -10 });
    // Storage of the free plan, records without a limit.
    await setLimits(shrinking.id, { recordLimit: null });
    const [records, storage] = (await forecastOf(shrinking.id)).forecasts;
    expect(records).toMatchObject({ metric: 'records', status: 'no_limit', limit: null, reachesOn: null });
    expect(storage).toMatchObject({ metric: 'storage', status: 'not_within_a_year', limit: 1024 ** 3 });
  });

  it('is not swung by a one-day bulk import, and needs a week of history', async () => {
    // 50 a day, and 10,000 imported three days ago: the pace stays 50, from today’s level.
    const base = await baseWithHistory(30, (i) => 5_000 + 50 * i + (i >= 27 ? 10_000 : 0));
    await setLimits(base.id, { recordLimit: 20_000 });
    const [records] = (await forecastOf(base.id)).forecasts;
    expect(records).toMatchObject({ current: 16_450, dailyGrowth: 50, status: 'ok', reachesOn: dayOffset(71) });

    const young = await baseWithHistory(5, (i) => 100 * i);
    await setLimits(young.id, { plan: 'free' });
    expect((await forecastOf(young.id)).forecasts[0]).toMatchObject({
      status: 'not_enough_history',
      current: 400,
      limit: 1_000,
      reachesOn: null,
    });
    expect(await refusal(() => t.services.usageForecasts.get(t.other.accountId, young.id))).toBe('not_found');
  });

  it('tells no pace for a base whose counts stopped more than 30 days ago', async () => {
    const base = await baseWithHistory(60, (i) => 100 * i);
    await t.dataSource.query('DELETE FROM usage_snapshot WHERE usage_base_id = ? AND date > ?', [base.id, dayOffset(-31)]);
    await setLimits(base.id, { recordLimit: 1_000_000 });
    expect((await forecastOf(base.id)).forecasts[0]).toMatchObject({ status: 'not_enough_history', current: null, reachesOn: null });
  });
});
