import { dayNumber, dayOfNumber } from './day-arithmetic.js';

/** One day's value of a metric (records or bytes) on the base's local calendar day YYYY-MM-DD. */
export interface DayValue {
  date: string;
  value: number;
}

export interface ForecastInput {
  /** Any order, one per day (the last given wins), days may be missing. */
  points: DayValue[];
  limit: number | null;
  /** The base's local day, YYYY-MM-DD: the one-year horizon counts from it. */
  today: string;
}

export type ForecastStatus = 'ok' | 'not_enough_history' | 'not_within_a_year' | 'no_limit';

/** One metric's entry of GET /usage/bases/{id}/forecast (CONTRACT §10) without `metric`, which the caller adds. */
export interface Forecast {
  limit: number | null;
  current: number | null;
  dailyGrowth: number | null;
  reachesOn: string | null;
  earliest: string | null;
  latest: string | null;
  status: ForecastStatus;
}

const WINDOW_DAYS = 30;
/** Days counted within the window (one point a day, so they also cover at least a week). */
const MIN_DAYS = 7;
const HORIZON_DAYS = 365;
/** A day-to-day jump this many robust standard deviations away from the usual day-to-day change cuts the history. */
const JUMP_CUT = 5;
/** Two-sided 90%. */
const Z_90 = 1.645;

/** `x`: days before the newest point (0 for it, negative before). */
interface Point {
  x: number;
  y: number;
}

interface Trend {
  slope: number;
  steeperSlope: number;
  shallowerSlope: number;
  /** The projection's start: the trend's value on the newest day. */
  level: number;
}

/**
 * The day a metric reaches its limit at the recent pace (issue 18 point 3), with a range.
 *
 * - History: the points of the 30 days ending at the newest point; at least 7 of them (one a day, so at least a week),
 *   otherwise not_enough_history (current and limit still given).
 * - Pace: Theil–Sen, the median of the pairwise slopes, after cutting the history at every day-to-day jump far outside
 *   the usual day-to-day change (a bulk import, a cleanup) and taking only pairs within a piece. Plain Theil–Sen is
 *   robust to a jump only near the window's ends: one in the middle lies between half of all pairs and drags the median.
 * - Level: the projection starts at the trend line's value on the newest day, Theil–Sen's intercept (the median of
 *   value − pace × days) over the points after the last cut: after a bulk import it starts from the imported level,
 *   since those records really are there, and the median keeps one odd newest count from moving it.
 * - Range: pace ± 1.645 × (robust deviation of one day's additions) / √(days covered), the 90% interval of an average
 *   of independent uneven days. Not a percentile interval of the pairwise slopes: Sen's interval assumes independent
 *   misses around a line, but counts accumulate, so an uneven day stays in every later count; in the bench it held the
 *   true day in 29–54% of the cases wherever days were uneven, this range in 86–100% (wider than needed where counts
 *   only miss for a day). earliest comes from the steeper pace, latest from the shallower, from the same level.
 * - Dates: the first day after the newest point on which the projection reaches the limit. Each of reachesOn, earliest
 *   and latest is null when its pace is ≤ 0 or its day is more than 365 days after today; status not_within_a_year when
 *   reachesOn is null so (earliest may still name a day within the year: it could come that soon).
 * - No limit: no_limit, the pace still given. Newest value at or over the limit: ok, all three dates the newest
 *   point's day (already reached), however short the history.
 *
 * bench/forecast-accuracy.bench.ts measures all of this against least squares and plain Theil–Sen.
 */
export function forecastMetric({ points, limit, today }: ForecastInput): Forecast {
  const { newestDay, window } = lastDays(points);
  const current = window.at(-1)?.y ?? null;
  const trend = hasEnoughHistory(window) ? fitTrend(window) : undefined;
  const dailyGrowth = trend ? Math.round(trend.slope * 100) / 100 : null;
  const base = { limit, current, dailyGrowth, reachesOn: null, earliest: null, latest: null };
  if (limit === null) return { ...base, status: 'no_limit' };
  if (current !== null && current >= limit) {
    const reached = dayOfNumber(newestDay);
    return { ...base, reachesOn: reached, earliest: reached, latest: reached, status: 'ok' };
  }
  if (!trend) return { ...base, status: 'not_enough_history' };

  const lastDay = dayNumber(today) + HORIZON_DAYS;
  const reachDay = (slope: number): string | null => {
    if (slope <= 0) return null;
    // The epsilon keeps an exact whole number of days from becoming one more through rounding.
    const day = newestDay + Math.max(1, Math.ceil((limit - trend.level) / slope - 1e-9));
    return day > lastDay ? null : dayOfNumber(day);
  };
  const reachesOn = reachDay(trend.slope);
  return {
    ...base,
    reachesOn,
    earliest: reachDay(trend.steeperSlope),
    latest: reachDay(trend.shallowerSlope),
    status: reachesOn ? 'ok' : 'not_within_a_year',
  };
}

function lastDays(points: DayValue[]): { newestDay: number; window: Point[] } {
  const byDay = new Map(points.map((point) => [dayNumber(point.date), point.value]));
  const newestDay = Math.max(...byDay.keys());
  const window = [...byDay]
    .map(([day, value]) => ({ x: day - newestDay, y: value }))
    .filter((point) => point.x > -WINDOW_DAYS)
    .sort((a, b) => a.x - b.x);
  return { newestDay, window };
}

const hasEnoughHistory = (window: Point[]) => window.length >= MIN_DAYS;

function fitTrend(window: Point[]): Trend | undefined {
  const pieces = cutAtJumps(window);
  const slopes = slopesWithinPieces(pieces);
  if (slopes.length === 0) return undefined;
  const slope = median(slopes);
  const halfRange = (Z_90 * unevenness(pieces, slope)) / Math.sqrt(daysCovered(pieces));
  const level = median(pieces[pieces.length - 1].map((point) => point.y - slope * point.x));
  return { slope, steeperSlope: slope + halfRange, shallowerSlope: slope - halfRange, level };
}

/** A robust standard deviation of one day's additions around the pace, within the pieces. */
function unevenness(pieces: Point[][], slope: number): number {
  return spreadAround(
    pieces.flatMap((piece) => dayToDayDeviations(piece, slope)),
    0,
  );
}

/**
 * A robust standard deviation of `values` around `center`: the median absolute deviation, but at least the mean
 * absolute deviation's. Growth in bursts (weekdays only, some days none) makes most deviations equal, so the median
 * one is 0: every burst would then be a jump, and the range would have no width.
 */
function spreadAround(values: number[], center: number): number {
  const distances = values.map((value) => Math.abs(value - center));
  const mean = distances.reduce((sum, distance) => sum + distance, 0) / Math.max(distances.length, 1);
  return Math.max(1.4826 * median(distances), 1.2533 * mean);
}

const daysCovered = (pieces: Point[][]) => pieces.reduce((sum, piece) => sum + piece[piece.length - 1].x - piece[0].x, 0);

/** The history split at each day-to-day change far from the usual ones. */
function cutAtJumps(window: Point[]): Point[][] {
  const pace = median(window.slice(1).map((point, i) => (point.y - window[i].y) / (point.x - window[i].x)));
  const deviations = dayToDayDeviations(window, pace);
  const usual = median(deviations);
  const spread = spreadAround(deviations, usual);
  const pieces = [[window[0]]];
  deviations.forEach((deviation, i) => {
    if (Math.abs(deviation - usual) > JUMP_CUT * spread) pieces.push([]);
    pieces[pieces.length - 1].push(window[i + 1]);
  });
  return pieces;
}

/**
 * What each count added beyond `pace` since the one before, per √day: over a gap of d days the additions of d uneven
 * days add up, and their spread grows with √d.
 */
const dayToDayDeviations = (points: Point[], pace: number) =>
  points.slice(1).map((point, i) => {
    const days = point.x - points[i].x;
    return (point.y - points[i].y - pace * days) / Math.sqrt(days);
  });

/** The slopes of all pairs of points within the same piece (loops: flatMap is several times slower here). */
function slopesWithinPieces(pieces: Point[][]): number[] {
  const slopes: number[] = [];
  for (const piece of pieces) {
    for (let i = 0; i < piece.length; i++) {
      for (let j = i + 1; j < piece.length; j++) slopes.push((piece[j].y - piece[i].y) / (piece[j].x - piece[i].x));
    }
  }
  return slopes;
}

function median(values: number[]): number {
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
