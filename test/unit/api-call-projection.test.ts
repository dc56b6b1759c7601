import { describe, expect, it } from 'vitest';
import { projectToMonthEnd } from '../../src/services/usage-insight/api-call-usage.service.js';

describe(projectToMonthEnd.name, () => {
  it('extrapolates the month so far to its end, by the month’s own length', () => {
    // 10 of 30 days of November gone: three times as many by its end.
    expect(projectToMonthEnd(1_000, new Date('2026-11-11T00:00:00.000Z'))).toBe(3_000);
    // 14 of 28 days of February.
    expect(projectToMonthEnd(700, new Date('2026-02-15T00:00:00.000Z'))).toBe(1_400);
    expect(projectToMonthEnd(0, new Date('2026-11-20T00:00:00.000Z'))).toBe(0);
  });

  it('counts the first hours of a month as one whole day', () => {
    expect(projectToMonthEnd(10, new Date('2026-11-01T00:10:00.000Z'))).toBe(300);
    expect(projectToMonthEnd(10, new Date('2026-11-01T23:59:59.000Z'))).toBe(300);
    expect(projectToMonthEnd(10, new Date('2026-11-02T12:00:00.000Z'))).toBe(200);
  });

  it('is the total at the last instant of the month', () => {
    expect(projectToMonthEnd(4_321, new Date('2026-12-31T23:59:59.999Z'))).toBe(4_321);
  });
});
