import { describe, expect, it } from 'vitest';
import { byteAxis, dayNumber, dayOfNumber, dayTickLabel, dayTicks } from '../../web/src/usage/chart-scale.js';

const days = (from: string, to: string) => [dayNumber(from), dayNumber(to)] as const;

describe('the usage chart’s axes for daily data', () => {
  it('ticks every day of a week, Mondays over a month or a quarter where days crowd, months over a year', () => {
    const [a, b] = days('2026-11-08', '2026-11-14');
    const week = dayTicks(a, b, 800);
    expect(week.unit).toBe('day');
    expect(week.ticks.map(dayOfNumber)).toEqual([
      '2026-11-08',
      '2026-11-09',
      '2026-11-10',
      '2026-11-11',
      '2026-11-12',
      '2026-11-13',
      '2026-11-14',
    ]);
    // A phone-wide week: every other day.
    expect(dayTicks(a, b, 300).ticks.map(dayOfNumber)).toEqual(['2026-11-08', '2026-11-10', '2026-11-12', '2026-11-14']);

    const [m1, m2] = days('2026-10-16', '2026-11-14');
    const month = dayTicks(m1, m2, 800);
    expect(month.unit).toBe('week');
    expect(month.ticks.map(dayOfNumber)).toEqual(['2026-10-19', '2026-10-26', '2026-11-02', '2026-11-09']);
    expect(month.ticks.every((n) => new Date(n * 86_400_000).getUTCDay() === 1)).toBe(true);

    const [q1, q2] = days('2026-08-17', '2026-11-14');
    expect(dayTicks(q1, q2, 800).unit).toBe('week');
    expect(dayTicks(q1, q2, 300).ticks.length).toBeLessThanOrEqual(5);

    const [y1, y2] = days('2025-11-15', '2026-11-14');
    const year = dayTicks(y1, y2, 800);
    expect(year.unit).toBe('month');
    expect(year.ticks.map(dayOfNumber)[0]).toBe('2025-12-01');
    expect(year.ticks.every((n) => dayOfNumber(n).endsWith('-01'))).toBe(true);
    expect(dayTickLabel(dayNumber('2026-01-01'), 'month', false)).toMatch(/2026/);
    expect(dayTickLabel(dayNumber('2026-03-01'), 'month', false)).not.toMatch(/2026/);
    expect(dayTickLabel(dayNumber('2026-11-14'), 'day', false)).not.toMatch(/:|AM|PM/);
  });

  it('steps storage in binary steps of one binary unit, so every label is exact in the unit it prints', () => {
    // A gigabyte (decimal) of storage: MiB in steps of powers of two, never "953.7 MiB".
    const mib = byteAxis(1e9);
    for (const step of mib.increments) {
      for (const k of [1, 2, 3, 7]) expect(mib.label(k * step)).toMatch(/^[\d,]+(\.\d{1,3})? MiB$/);
    }
    expect(mib.increments).toContain(128 * 1024 ** 2);
    expect(mib.label(3 * 256 * 1024 ** 2)).toBe('768 MiB');
    expect(mib.label(0)).toBe('0 MiB');
    // With a limit of 1 GiB on the scale: quarters of a GiB.
    const gib = byteAxis(1.1 * 1024 ** 3);
    expect(gib.label(0.25 * 1024 ** 3)).toBe('0.25 GiB');
    expect(gib.label(1024 ** 3)).toBe('1 GiB');
    expect(byteAxis(300).label(256)).toBe('256 bytes');
    expect(byteAxis(300).increments[0]).toBe(1);
  });
});
