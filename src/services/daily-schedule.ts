import { DateTime } from 'luxon';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The zone's UTC offset at an instant, in milliseconds. */
function offsetAt(instantMs: number, zone: string): number {
  return DateTime.fromMillis(instantMs, { zone }).offset * 60_000;
}

/**
 * The instant a daily run at `hour`:00 local time happens on a local calendar day (YYYY-MM-DD):
 * - normally the one instant the wall clock shows that hour;
 * - on a fall-back day, when the hour occurs twice, the first occurrence (so it runs once);
 * - on a spring-forward day, when the hour falls in the gap, the first valid instant after the gap
 *   (the moment of the switch), whatever the size of the gap (Lord Howe moves 30 minutes, Chatham at :45).
 */
export function runInstantOn(localDay: string, hour: number, zone: string): Date {
  const [year, month, day] = localDay.split('-').map(Number);
  const wall = Date.UTC(year, month - 1, day, hour);
  // A day holds at most one transition, so the offsets a day either side bound every candidate.
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wall - offsetAt(instant, zone) === instant)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return new Date(candidates[0]);
  return new Date(transitionBetween(wall - after, wall - before, zone));
}

/** The first instant in (low, high] whose offset differs from the offset at `low` (binary search to the ms). */
function transitionBetween(low: number, high: number, zone: string): number {
  const start = offsetAt(low, zone);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (offsetAt(mid, zone) === start) low = mid;
    else high = mid;
  }
  return high;
}

/** The local calendar day of an instant in a zone. */
export function localDayOf(instant: Date, zone: string): string {
  return DateTime.fromJSDate(instant, { zone }).toISODate() as string;
}

/** The first daily run strictly after `now`, with the local day it belongs to. */
export function nextDailyRun(hour: number, zone: string, now: Date): { runAt: Date; localDay: string } {
  let day = DateTime.fromJSDate(now, { zone }).minus({ days: 1 }).startOf('day');
  for (let i = 0; i < 4; i++, day = day.plus({ days: 1 })) {
    const localDay = day.toISODate() as string;
    const runAt = runInstantOn(localDay, hour, zone);
    if (runAt.getTime() > now.getTime()) return { runAt, localDay };
  }
  throw new Error(`no daily run found for hour ${hour} in ${zone} after ${now.toISOString()}`);
}

/** Today's run in the zone, or undefined when it is still ahead (used for catch-up after downtime). */
export function todaysRun(hour: number, zone: string, now: Date): { runAt: Date; localDay: string } | undefined {
  const localDay = localDayOf(now, zone);
  const runAt = runInstantOn(localDay, hour, zone);
  return runAt.getTime() <= now.getTime() ? { runAt, localDay } : undefined;
}
