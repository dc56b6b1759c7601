import { dayNumber, dayOfNumber } from '../src/services/usage-insight/day-arithmetic.js';
import { forecastMetric } from '../src/services/usage-insight/forecast.js';
import { count, type ReportTable } from './support/markdown.js';
import { percentile } from './support/percentiles.js';
import { progress } from './support/progress.js';

const CASES_PER_FAMILY = 2_000;
/** Issue 18 point 3. */
const SEED = 183;
const NEWEST_DAY = dayNumber('2026-06-30');
const WINDOW_DAYS = 30;
const HORIZON_DAYS = 365;
/** True days until full are drawn from 1 to this, so about a fifth of the growing cases are beyond the year. */
const LONGEST_TRUE_DAYS = 450;
const HORIZON_BANDS = [
  [1, 30],
  [31, 90],
  [91, 180],
  [181, HORIZON_DAYS],
];

/** How a synthetic history is made; noise and steps are in days' worth of the true daily growth. */
interface Shape {
  days: number;
  /** Growth per day before the last 30 days, as a multiple of the recent growth. */
  earlierPace?: () => number;
  /** Deviation of a count that does not last (counted at another hour). */
  jitter: number;
  /** Deviation of each day's additions; it lasts, since counts accumulate. */
  uneven: number;
  /** One-day jumps: day index within the last 30 days, size. */
  steps: () => { day: number; size: number }[];
  missing: number;
  /** A shrinking or flat base instead of a growing one. */
  shrinking?: boolean;
  /** Growth in bursts: a day's growth as a multiple of the mean (averaging 1). */
  burst?: (day: number) => number;
}

interface Point {
  x: number;
  y: number;
}

interface Scenario {
  points: Point[];
  limit: number;
  /** Days after the newest point on which the true growth reaches the limit; null beyond the year or never. */
  trueDays: number | null;
}

/** Days after the newest point: reachesOn, earliest, latest (null: not within the year). */
interface Answer {
  reachesOn: number | null;
  earliest: number | null;
  latest: number | null;
}

const uniform = (random: () => number, low: number, high: number) => low + random() * (high - low);
const none = () => [];

function families(random: () => number): { name: string; shape: Shape }[] {
  // One jump of 5–60 days' growth on a day index from low to high (0: the window's first day).
  const at =
    (low: number, high: number, sign = 1) =>
    () => [{ day: Math.floor(uniform(random, low, high + 1)), size: sign * uniform(random, 5, 60) }];
  const steady = { days: WINDOW_DAYS, steps: none, missing: 0 };
  return [
    { name: 'steady: counts off by ±0.5 day, days ±20 %', shape: { ...steady, jitter: 0.5, uneven: 0.2 } },
    { name: 'steady: counts off by ±3 days', shape: { ...steady, jitter: 3, uneven: 0 } },
    { name: 'uneven days: ±100 %', shape: { ...steady, jitter: 0, uneven: 1 } },
    { name: 'bulk import of 5–60 days of growth on day 23–30 of 30', shape: { ...steady, jitter: 0.3, uneven: 0.5, steps: at(22, 29) } },
    { name: 'bulk import of 5–60 days of growth on day 11–21 of 30', shape: { ...steady, jitter: 0.3, uneven: 0.5, steps: at(10, 20) } },
    { name: 'cleanup of 5–60 days of growth on day 6–30 of 30', shape: { ...steady, jitter: 0.3, uneven: 0.5, steps: at(5, 29, -1) } },
    {
      name: 'two bulk imports on day 6–30 of 30',
      shape: { ...steady, jitter: 0.3, uneven: 0.5, steps: () => [...at(5, 29)(), ...at(5, 29)()] },
    },
    {
      name: 'growth on weekdays only (×7/5, weekends 0)',
      shape: { ...steady, jitter: 0.1, uneven: 0.1, burst: (day) => (day % 7 < 5 ? 7 / 5 : 0) },
    },
    {
      name: 'growth on 40 % of days at random (×2.5, else 0)',
      shape: { ...steady, jitter: 0.1, uneven: 0, burst: () => (random() < 0.4 ? 2.5 : 0) },
    },
    { name: 'a quarter of the days not counted', shape: { ...steady, jitter: 0.3, uneven: 0.5, missing: 0.25 } },
    {
      name: '60 days, the first 30 at ×0.2 or ×4 the pace',
      shape: { ...steady, days: 60, jitter: 0.3, uneven: 0.5, earlierPace: () => (random() < 0.5 ? 0.2 : 4) },
    },
    { name: 'flat or shrinking', shape: { ...steady, jitter: 0.5, uneven: 0.5, shrinking: true } },
  ];
}

function makeScenario(random: () => number, shape: Shape): Scenario {
  const growth = shape.shrinking ? -uniform(random, 0, 100) : uniform(random, 20, 500);
  // Noise of a flat base is in records, not in days of a growth it does not have.
  const unit = shape.shrinking ? 20 : growth;
  const steps = shape.steps();
  const earlier = shape.earlierPace?.() ?? 1;
  let level = uniform(random, 5_000, 50_000);
  const points: Point[] = [];
  for (let i = 0; i < shape.days; i++) {
    const windowDay = i - (shape.days - WINDOW_DAYS);
    level += (windowDay <= 0 ? earlier : 1) * growth * (shape.burst?.(i) ?? 1) + gaussian(random) * shape.uneven * unit;
    for (const step of steps) if (step.day === windowDay) level += step.size * unit;
    const counted = i === shape.days - 1 || random() >= shape.missing;
    const observed = Math.max(0, Math.round(level + gaussian(random) * shape.jitter * unit));
    if (counted) points.push({ x: i - (shape.days - 1), y: observed });
  }
  if (shape.shrinking) return { points, limit: Math.round(level * uniform(random, 1.05, 2)), trueDays: null };
  const daysToFull = Math.ceil(uniform(random, 0, LONGEST_TRUE_DAYS));
  // Half a day short of `daysToFull` days of growth, so rounding cannot move the true day.
  const limit = Math.round(level + growth * (daysToFull - 0.5));
  return { points, limit, trueDays: daysToFull <= HORIZON_DAYS ? daysToFull : null };
}

/** The forecast under test, through its public API. */
function robustAnswer(scenario: Scenario): Answer {
  const forecast = forecastMetric({
    points: scenario.points.map((point) => ({ date: dayOfNumber(NEWEST_DAY + point.x), value: point.y })),
    limit: scenario.limit,
    today: dayOfNumber(NEWEST_DAY),
  });
  const days = (date: string | null) => (date === null ? null : dayNumber(date) - NEWEST_DAY);
  return { reachesOn: days(forecast.reachesOn), earliest: days(forecast.earliest), latest: days(forecast.latest) };
}

interface Fit {
  slope: number;
  shallower: number;
  steeper: number;
  /** The fitted line's value on the newest day. */
  level: number;
}

/** Ordinary least squares with the slope's 95% t interval, the line's value on the newest day as the start. */
function leastSquares(points: Point[]): Fit {
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  const sxx = points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
  const slope = points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0) / sxx;
  const level = meanY - slope * meanX;
  const residuals = points.reduce((sum, p) => sum + (p.y - level - slope * p.x) ** 2, 0);
  const halfWidth = 2.05 * Math.sqrt(residuals / (n - 2) / sxx);
  return { slope, shallower: slope - halfWidth, steeper: slope + halfWidth, level };
}

/** Plain Theil–Sen over all pairs, Sen's 95% interval, the Theil–Sen line's value on the newest day as the start. */
function plainTheilSen(points: Point[]): Fit {
  const slopes = points.flatMap((a, i) => points.slice(i + 1).map((b) => (b.y - a.y) / (b.x - a.x))).sort((a, b) => a - b);
  const n = points.length;
  const reach = 1.96 * Math.sqrt((n * (n - 1) * (2 * n + 5)) / 18);
  const slope = middle(slopes);
  return {
    slope,
    shallower: slopes[Math.max(Math.round((slopes.length - reach) / 2) - 1, 0)],
    steeper: slopes[Math.min(Math.round((slopes.length + reach) / 2), slopes.length - 1)],
    level: middle(points.map((p) => p.y - slope * p.x)),
  };
}

/** A baseline's answer under the same rules as the forecast: the last 30 days, at least one day ahead, within the year. */
function baselineAnswer(scenario: Scenario, fitLine: (points: Point[]) => Fit): Answer {
  const window = scenario.points.filter((point) => point.x > -WINDOW_DAYS);
  if (window[window.length - 1].y >= scenario.limit) return { reachesOn: 0, earliest: 0, latest: 0 };
  const { slope, shallower, steeper, level } = fitLine(window);
  const reach = (s: number) => {
    if (s <= 0) return null;
    const days = Math.max(1, Math.ceil((scenario.limit - level) / s - 1e-9));
    return days > HORIZON_DAYS ? null : days;
  };
  return { reachesOn: reach(slope), earliest: reach(steeper), latest: reach(shallower) };
}

const METHODS: { name: string; answer: (scenario: Scenario) => Answer }[] = [
  { name: 'least squares (baseline)', answer: (scenario) => baselineAnswer(scenario, leastSquares) },
  { name: 'plain Theil–Sen', answer: (scenario) => baselineAnswer(scenario, plainTheilSen) },
  { name: 'forecastMetric (Theil–Sen cut at jumps)', answer: robustAnswer },
];

interface Outcome {
  trueDays: number | null;
  answer: Answer;
}

/** Median, p90 absolute error in days, share of right statuses, share of true days inside the range. */
function summarise(outcomes: Outcome[]) {
  const errors = outcomes
    .filter((o) => o.trueDays !== null && o.answer.reachesOn !== null)
    .map((o) => Math.abs((o.answer.reachesOn as number) - (o.trueDays as number)))
    .sort((a, b) => a - b);
  const rightStatus = outcomes.filter((o) => (o.trueDays === null) === (o.answer.reachesOn === null)).length;
  const dated = outcomes.filter((o) => o.trueDays !== null);
  const inside = dated.filter(({ trueDays, answer }) => isInside(trueDays as number, answer)).length;
  const widths = dated
    .filter((o) => o.answer.earliest !== null && o.answer.latest !== null)
    .map((o) => (o.answer.latest as number) - (o.answer.earliest as number))
    .sort((a, b) => a - b);
  return { errors, rightStatus, dated: dated.length, inside, widths };
}

// A null latest is beyond the year; a null earliest means even the steeper pace misses the year.
const isInside = (trueDays: number, { earliest, latest }: Answer) =>
  earliest !== null && earliest <= trueDays && (latest === null || trueDays <= latest);

const share = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)} %`);
const days = (sorted: number[], p: number) => (sorted.length === 0 ? '—' : percentile(sorted, p).toFixed(0));

function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
}

/** mulberry32: a small seeded generator, so every run replays the same histories. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Box–Muller: a standard normal deviate. */
const gaussian = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/**
 * Days until full, replayed on synthetic histories with known growth, steps and noise (issue 18 point 3): the
 * forecast against least squares and plain Theil–Sen on the same 30 days, under the same projection rules.
 */
export async function runForecastAccuracyBench(): Promise<ReportTable[]> {
  const random = seeded(SEED);
  const rows: string[][] = [];
  const forecastOutcomes: Outcome[] = [];
  let forecasts = 0;
  let forecastMs = 0;
  for (const { name, shape } of families(random)) {
    progress(`forecast: ${name}`);
    const scenarios = Array.from({ length: CASES_PER_FAMILY }, () => makeScenario(random, shape));
    for (const method of METHODS) {
      const started = performance.now();
      const outcomes = scenarios.map((scenario) => ({ trueDays: scenario.trueDays, answer: method.answer(scenario) }));
      if (method.answer === robustAnswer) {
        forecastMs += performance.now() - started;
        forecasts += scenarios.length;
        forecastOutcomes.push(...outcomes);
      }
      const s = summarise(outcomes);
      const status = share(s.rightStatus, outcomes.length);
      rows.push([name, method.name, status, days(s.errors, 50), days(s.errors, 90), share(s.inside, s.dated), days(s.widths, 50)]);
    }
  }
  return [
    {
      title: `Days until full on synthetic histories: ${count(CASES_PER_FAMILY)} seeded cases per family`,
      headers: [
        'history',
        'method',
        'right status',
        'median |error| (days)',
        'p90 |error| (days)',
        'true day in [earliest, latest]',
        'median range width (days)',
      ],
      rows,
      notes: [
        'Each case: a true daily growth of 20–500 records, a limit the true growth reaches 1–' +
          `${LONGEST_TRUE_DAYS} days after the newest count (beyond ${HORIZON_DAYS}: the right status is not_within_a_year). ` +
          '"Counts off by ±k days": each count misses by a normal deviate of k days\' growth, which does not last; "days ±p %": ' +
          "each day adds the growth ± p % (standard deviation), which lasts. Imports and cleanups: one day adds or removes 5–60 days' growth.",
        "The truth starts from the base's level on the newest day without the miss that does not last. Errors are over the cases where " +
          'both the truth and the method give a day; the range share is over the cases with a true day within the year (a null latest ' +
          'counts as beyond the year); widths over the cases with both ends.',
        "Ranges: least squares ± its 95 % t interval; plain Theil–Sen: Sen's 95 % rank interval of the pairwise slopes; " +
          "forecastMetric: 90 % from the spread of the day-to-day additions. All three start from their line's value on the newest day.",
      ],
    },
    {
      title: 'forecastMetric by how far away the true day is (every growing family)',
      headers: [
        'true days until full',
        'cases',
        'median |error| (days)',
        'p90 |error| (days)',
        'true day in [earliest, latest]',
        'median range width (days)',
      ],
      rows: HORIZON_BANDS.map(([from, to]) => {
        const s = summarise(forecastOutcomes.filter(({ trueDays }) => trueDays !== null && trueDays >= from && trueDays <= to));
        return [`${from}–${to}`, count(s.dated), days(s.errors, 50), days(s.errors, 90), share(s.inside, s.dated), days(s.widths, 50)];
      }),
      notes: [
        `${count(forecasts)} forecasts (30 or 60 daily points, the input built from them included) in ${forecastMs.toFixed(0)} ms: ` +
          `${((1000 * forecastMs) / forecasts).toFixed(1)} µs each.`,
      ],
    },
  ];
}
