import { describe, expect, it } from 'vitest';
import { dayNumber, dayOfNumber } from '../../src/services/usage-insight/day-arithmetic.js';
import { forecastMetric, type DayValue } from '../../src/services/usage-insight/forecast.js';

const FIRST_DAY = '2026-03-01';

/** Day `offset` after 2026-03-01. */
const day = (offset: number) => dayOfNumber(dayNumber(FIRST_DAY) + offset);

/** One point a day from 2026-03-01, `value(i)` on day i; days listed in `missing` are left out. */
function history(days: number, value: (i: number) => number, missing: number[] = []): DayValue[] {
  return Array.from({ length: days }, (_, i) => i)
    .filter((i) => !missing.includes(i))
    .map((i) => ({ date: day(i), value: value(i) }));
}

/** Deterministic noise in [-1, 1): a small linear congruential generator, the same on every run. */
function noise(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return (state / 2_147_483_648) * 2 - 1;
  };
}

describe('day arithmetic', () => {
  it('counts UTC days across month ends, leap days and DST changes', () => {
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayOfNumber(dayNumber('2028-02-28') + 1)).toBe('2028-02-29');
    expect(dayOfNumber(dayNumber('2026-12-31') + 1)).toBe('2027-01-01');
    expect(dayNumber('2026-03-30') - dayNumber('2026-03-28')).toBe(2);
    expect(dayNumber('2027-03-01') - dayNumber('2026-03-01')).toBe(365);
  });
});

describe(forecastMetric.name, () => {
  it('projects steady growth to the exact day, whatever the order of the points', () => {
    const points = history(30, (i) => 1_000 + 100 * i).reverse();

    const forecast = forecastMetric({ points, limit: 5_000, today: day(29) });

    // 3,900 on 2026-03-30, 1,100 to go at 100 a day: 11 days.
    expect(forecast).toEqual({
      limit: 5_000,
      current: 3_900,
      dailyGrowth: 100,
      reachesOn: '2026-04-10',
      earliest: '2026-04-10',
      latest: '2026-04-10',
      status: 'ok',
    });
  });

  it('gives the pace to two decimals and whole days despite rounding', () => {
    const forecast = forecastMetric({ points: history(30, (i) => 1_000 + (50 / 7) * i), limit: 1_250, today: day(29) });

    expect(forecast.dailyGrowth).toBe(7.14);
    // 1,250 is exactly 35 days of 50/7 after day 0: day 35, not one later through floating-point rounding.
    expect(forecast.reachesOn).toBe(day(35));
  });

  it('answers not_within_a_year for a flat base', () => {
    const forecast = forecastMetric({ points: history(30, () => 5_000), limit: 6_000, today: day(29) });

    expect(forecast).toMatchObject({
      current: 5_000,
      dailyGrowth: 0,
      reachesOn: null,
      earliest: null,
      latest: null,
      status: 'not_within_a_year',
    });
  });

  it('answers not_within_a_year for a shrinking base', () => {
    const forecast = forecastMetric({ points: history(30, (i) => 5_000 - 20 * i), limit: 6_000, today: day(29) });

    expect(forecast).toMatchObject({ current: 4_420, dailyGrowth: -20, reachesOn: null, latest: null, status: 'not_within_a_year' });
  });

  it('keeps the pace through a one-day bulk import and starts from the imported level', () => {
    // Day 25 of 30 (index 24) brings 5,000 records at once.
    const points = history(30, (i) => 1_000 + 100 * i + (i >= 24 ? 5_000 : 0));

    const forecast = forecastMetric({ points, limit: 10_000, today: day(29) });

    // 8,900 on 2026-03-30, 1,100 to go at 100 a day.
    expect(forecast).toMatchObject({ current: 8_900, dailyGrowth: 100, reachesOn: '2026-04-10', status: 'ok' });
  });

  it('keeps the pace through a bulk import in the middle of a noisy month, where half of all pairs straddle it', () => {
    const jitter = noise(7);
    const points = history(30, (i) => Math.round(1_000 + 100 * i + (i >= 15 ? 5_000 : 0) + 40 * jitter()));

    const forecast = forecastMetric({ points, limit: 20_000, today: day(29) });

    // Without the cut the median pairwise slope lands near 220 a day here.
    expect(forecast.dailyGrowth).toBeGreaterThan(95);
    expect(forecast.dailyGrowth).toBeLessThan(105);
    // About 8,900 on 2026-03-30 and 11,100 to go: 111 days at 100 a day.
    expect(dayNumber(forecast.reachesOn as string) - dayNumber(day(29))).toBeGreaterThanOrEqual(106);
    expect(dayNumber(forecast.reachesOn as string) - dayNumber(day(29))).toBeLessThanOrEqual(117);
  });

  it('keeps the pace through a one-day cleanup', () => {
    const points = history(30, (i) => 10_000 + 50 * i - (i >= 10 ? 4_000 : 0));

    const forecast = forecastMetric({ points, limit: 8_000, today: day(29) });

    // 7,450 on 2026-03-30, 550 to go at 50 a day.
    expect(forecast).toMatchObject({ current: 7_450, dailyGrowth: 50, reachesOn: day(40), status: 'ok' });
  });

  it('does not start from one odd newest count that is no jump', () => {
    // 60 and 140 a day by turns (100 on average), then 350 on the newest day: within the usual day-to-day change.
    const points = history(30, (i) => 10_000 + 100 * i + (i % 2 === 1 ? 40 : 0) + (i === 29 ? 210 : 0));

    const forecast = forecastMetric({ points, limit: 20_000, today: day(29) });

    // The line through the month is at 12,920 on day 29 (half the days 40 above 12,900), 70.8 days of 100 from 20,000;
    // from the newest count, 13,150, it would be 68.5.
    expect(forecast).toMatchObject({ current: 13_150, dailyGrowth: 100, reachesOn: day(29 + 71) });
  });

  it('gives the next day when the newest count is just below the limit and the line already past it', () => {
    // 60 and 140 a day by turns again, then 110 fewer on the newest day: 12,690, while the month's line is at 12,900.
    const points = history(30, (i) => 10_000 + 100 * i + (i % 2 === 1 ? 40 : 0) - (i === 29 ? 250 : 0));

    const forecast = forecastMetric({ points, limit: 12_800, today: day(29) });

    expect(forecast).toMatchObject({ current: 12_690, reachesOn: day(30), status: 'ok' });
  });

  it('starts from the newest count when the import came on the newest day', () => {
    const points = history(30, (i) => 1_000 + 100 * i + (i === 29 ? 5_000 : 0));

    const forecast = forecastMetric({ points, limit: 10_000, today: day(29) });

    expect(forecast).toMatchObject({ current: 8_900, dailyGrowth: 100, reachesOn: '2026-04-10' });
  });

  it('answers not_enough_history with fewer than 7 days in the last 30, still giving current and limit', () => {
    const short = forecastMetric({ points: history(6, (i) => 1_000 + 100 * i), limit: 5_000, today: day(5) });
    // Days 0–25 and 50–55: the 30 days ending at day 55 start at day 26, so only 6 of them count.
    const gap = history(
      56,
      (i) => 1_000 + 100 * i,
      Array.from({ length: 24 }, (_, i) => 26 + i),
    );
    const stale = forecastMetric({ points: gap, limit: 7_000, today: day(55) });

    for (const forecast of [short, stale]) {
      expect(forecast).toMatchObject({ dailyGrowth: null, reachesOn: null, earliest: null, latest: null, status: 'not_enough_history' });
    }
    expect(short).toMatchObject({ limit: 5_000, current: 1_500 });
    expect(stale).toMatchObject({ limit: 7_000, current: 6_500 });
    expect(forecastMetric({ points: [], limit: 5_000, today: day(0) })).toMatchObject({ current: null, status: 'not_enough_history' });
    // Day 26 is the first of those 30 days: with it, 7 days count.
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    const justEnough = history(56, (i) => 1_000 + 100 * i, [...range(0, 25), ...range(27, 49)]);
    expect(forecastMetric({ points: justEnough, limit: 7_000, today: day(55) })).toMatchObject({
      dailyGrowth: 100,
      reachesOn: day(60),
      status: 'ok',
    });
  });

  it('answers no_limit without a limit, still giving the pace', () => {
    const forecast = forecastMetric({ points: history(30, (i) => 1_000 + 100 * i), limit: null, today: day(29) });

    expect(forecast).toEqual({
      limit: null,
      current: 3_900,
      dailyGrowth: 100,
      reachesOn: null,
      earliest: null,
      latest: null,
      status: 'no_limit',
    });
  });

  it('gives the newest day when the limit is already reached, however short the history', () => {
    const long = forecastMetric({ points: history(30, (i) => 1_000 + 100 * i), limit: 3_900, today: day(29) });
    const short = forecastMetric({ points: history(2, (i) => 1_000 + 100 * i), limit: 1_000, today: day(1) });

    expect(long).toMatchObject({ current: 3_900, reachesOn: day(29), earliest: day(29), latest: day(29), status: 'ok' });
    expect(short).toMatchObject({ current: 1_100, dailyGrowth: null, reachesOn: day(1), earliest: day(1), latest: day(1), status: 'ok' });
  });

  it('gives a range around the day on a noisy history that holds the true day', () => {
    const jitter = noise(42);
    const points = history(30, (i) => Math.round(20_000 + 200 * i + 300 * jitter()));

    const forecast = forecastMetric({ points, limit: 40_000, today: day(29) });

    // True: 25,800 on day 29 and 14,200 to go at 200 a day, 71 days.
    const trueDay = day(29 + 71);
    expect(forecast.status).toBe('ok');
    expect(forecast.current).toBe(points[29].value);
    expect(forecast.earliest! < forecast.reachesOn!).toBe(true);
    expect(forecast.reachesOn! < forecast.latest!).toBe(true);
    expect(forecast.earliest! <= trueDay && trueDay <= forecast.latest!).toBe(true);
    expect(Math.abs(dayNumber(forecast.reachesOn!) - dayNumber(trueDay))).toBeLessThanOrEqual(5);
  });

  it('handles missing days', () => {
    const points = history(30, (i) => 1_000 + 100 * i, [1, 2, 5, 9, 13, 14, 15, 20, 26, 28]);

    const forecast = forecastMetric({ points, limit: 5_000, today: day(29) });

    expect(forecast).toMatchObject({
      current: 3_900,
      dailyGrowth: 100,
      reachesOn: '2026-04-10',
      earliest: '2026-04-10',
      latest: '2026-04-10',
    });
  });

  it('uses only the 30 days ending at the newest point', () => {
    // 500 a day for 30 days, then 100 a day for 30 days.
    const points = history(60, (i) => (i < 30 ? 1_000 + 500 * i : 15_500 + 100 * (i - 29)));

    const forecast = forecastMetric({ points, limit: 20_000, today: day(59) });

    // 18,500 on day 59, 1,500 to go at 100 a day.
    expect(forecast).toMatchObject({ current: 18_500, dailyGrowth: 100, reachesOn: day(74) });
  });

  it('counts the year from today, not from the newest point', () => {
    const points = history(30, (i) => 1_000 + 100 * i);
    const inDays = (days: number) => 3_900 + 100 * days;

    expect(forecastMetric({ points, limit: inDays(365), today: day(29) })).toMatchObject({ reachesOn: day(29 + 365), status: 'ok' });
    expect(forecastMetric({ points, limit: inDays(366), today: day(29) })).toMatchObject({ reachesOn: null, status: 'not_within_a_year' });
    // Counted last 10 days ago: the day 366 days after the newest point is 356 days after today.
    expect(forecastMetric({ points, limit: inDays(366), today: day(39) })).toMatchObject({ reachesOn: day(29 + 366), status: 'ok' });
  });
});

describe('forecastMetric on growth in bursts', () => {
  const history = (days: number, added: (day: number) => number) => {
    const points = [];
    let value = 10_000;
    for (let i = 0; i < days; i += 1) {
      value += added(i);
      points.push({ date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10), value });
    }
    return points;
  };

  it('reads weekday-only growth at its weekly pace, with a range that has width', () => {
    // +100 on five days of seven: 71.4 a day.
    const forecast = forecastMetric({ points: history(30, (i) => (i % 7 < 5 ? 100 : 0)), limit: 20_000, today: '2026-01-30' });
    expect(forecast.status).toBe('ok');
    expect(forecast.dailyGrowth!).toBeGreaterThan(60);
    expect(forecast.dailyGrowth!).toBeLessThan(85);
    expect(forecast.earliest! < forecast.reachesOn!).toBe(true);
    expect(forecast.latest === null || forecast.latest > forecast.reachesOn!).toBe(true);
  });

  it('does not call growth on two days of five no growth', () => {
    // +100 on 40 % of days: 40 a day.
    const forecast = forecastMetric({ points: history(30, (i) => (i % 5 < 2 ? 100 : 0)), limit: 20_000, today: '2026-01-30' });
    expect(forecast.status).toBe('ok');
    expect(forecast.dailyGrowth!).toBeGreaterThan(25);
    expect(forecast.dailyGrowth!).toBeLessThan(55);
  });
});
