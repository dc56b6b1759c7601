import { DateTime, IANAZone } from 'luxon';

/** True for a real calendar day written exactly YYYY-MM-DD (so 2026-02-30 and 2026-1-1 are not). */
export function isValidDay(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value, { zone: 'utc' }).isValid;
}

let zoneSpellings: Map<string, string> | undefined;

/**
 * An IANA zone id or UTC in its usual spelling (`europe/berlin` → `Europe/Berlin`), or undefined when it is not a
 * zone. Offsets are not zones. Links keep the caller's name: ICU would turn Asia/Kolkata into Asia/Calcutta.
 */
export function canonicalTimeZone(value: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return undefined;
  if (value.toUpperCase() === 'UTC') return 'UTC';
  if (!IANAZone.isValidZone(value)) return undefined;
  zoneSpellings ??= new Map(Intl.supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone]));
  return zoneSpellings.get(value.toLowerCase()) ?? value;
}

/** The calendar day of an instant in a zone, YYYY-MM-DD. */
export function localDay(instant: Date, timeZone: string): string {
  return DateTime.fromJSDate(instant, { zone: timeZone }).toISODate() as string;
}

/**
 * Whole days `from`..`to` in a zone as stored ISO text: [start of `from`, start of the day after `to`). Start of day,
 * not midnight: where a zone skips midnight the day starts at the first instant it has. An end after year 9999 is no
 * end: ISO text of later years (`+010000-…`) sorts before every stored instant.
 */
export function dayRangeInstants(zone: string, from?: string, to?: string): { from?: string; to?: string } {
  const startOf = (day: string) => DateTime.fromISO(day, { zone }).startOf('day');
  const end = to ? startOf(to).plus({ days: 1 }).startOf('day').toUTC() : undefined;
  return {
    from: from ? startOf(from).toUTC().toISO()! : undefined,
    to: end && end.year <= 9999 ? end.toISO()! : undefined,
  };
}
