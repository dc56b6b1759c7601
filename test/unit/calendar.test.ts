import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, dayRangeInstants, isValidDay, localDay } from '../../src/services/calendar.js';

describe('calendar', () => {
  it('accepts only real days written YYYY-MM-DD', () => {
    expect(isValidDay('2026-11-21')).toBe(true);
    expect(isValidDay('2028-02-29')).toBe(true);
    for (const bad of ['2026-02-30', '2026-1-1', '2026-13-01', '20261121', '2026-11-21T00:00', '']) {
      expect(isValidDay(bad)).toBe(false);
    }
  });

  it('canonicalises IANA zones and UTC, and rejects the rest', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(canonicalTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    for (const bad of ['Mars/Olympus', '+02:00', 'GMT+2 ', '', 'Europe/Berlin; drop']) {
      expect(canonicalTimeZone(bad)).toBeUndefined();
    }
  });

  it('gives the local calendar day of an instant', () => {
    const instant = new Date('2026-11-21T23:30:00.000Z');
    expect(localDay(instant, 'UTC')).toBe('2026-11-21');
    expect(localDay(instant, 'Europe/Berlin')).toBe('2026-11-22');
    expect(localDay(instant, 'America/New_York')).toBe('2026-11-21');
  });

  it('turns whole days in a zone into instants, with no end after year 9999', () => {
    expect(dayRangeInstants('Europe/Berlin', '2026-11-21', '2026-11-22')).toEqual({
      from: '2026-11-20T23:00:00.000Z',
      to: '2026-11-22T23:00:00.000Z',
    });
    // The day after 9999-12-31 in UTC or west of it is in year 10000, whose ISO text would sort before every instant.
    expect(dayRangeInstants('UTC', undefined, '9999-12-31')).toEqual({ from: undefined, to: undefined });
    expect(dayRangeInstants('Etc/GMT+12', '9999-12-30', '9999-12-31').to).toBeUndefined();
    expect(dayRangeInstants('Pacific/Kiritimati', undefined, '9999-12-31').to).toBe('9999-12-31T10:00:00.000Z');
  });
});
