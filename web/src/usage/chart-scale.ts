// The usage chart's axes, made for daily data: the x axis counts calendar days of the base's zone (day numbers, not
// instants, so no zone shifts a day), its ticks are days, weeks (Mondays) or months by what fits; the y axis steps
// through storage in binary steps (powers of two of KiB, MiB, GiB), so its labels are round in the units they print.

const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' → days since 1970-01-01. */
export const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
/** days since 1970-01-01 → 'YYYY-MM-DD'. */
export const dayOfNumber = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

const isMonday = (n: number) => (n + 3) % 7 === 0;
const isFirstOfMonth = (n: number) => new Date(n * DAY_MS).getUTCDate() === 1;

export type TickUnit = 'day' | 'week' | 'month';

/**
 * The x axis' ticks for days `min`..`max` in a plot `width` CSS pixels wide, each label needing about `labelWidth`:
 * every day when they fit, else every other day for a couple of weeks, else Mondays, else first days of months
 * (every second, third… month when even those crowd).
 */
export function dayTicks(min: number, max: number, width: number, labelWidth = 56): { unit: TickUnit; ticks: number[] } {
  const fits = (count: number) => count * labelWidth <= width;
  const span = max - min + 1;
  const days = Array.from({ length: Math.max(0, span) }, (_, i) => min + i);
  if (fits(days.length)) return { unit: 'day', ticks: days };
  if (span <= 21) {
    for (const step of [2, 3]) {
      const every = days.filter((n) => (n - min) % step === 0);
      if (fits(every.length)) return { unit: 'day', ticks: every };
    }
  }
  const mondays = days.filter(isMonday);
  if (fits(mondays.length) || span <= 120) {
    if (fits(mondays.length)) return { unit: 'week', ticks: mondays };
    const everyOther = mondays.filter((_, i) => i % 2 === 0);
    if (fits(everyOther.length)) return { unit: 'week', ticks: everyOther };
  }
  const months = days.filter(isFirstOfMonth);
  for (const step of [1, 2, 3, 6, 12]) {
    const every = months.filter((_, i) => i % step === 0);
    if (fits(every.length) || step === 12) return { unit: 'month', ticks: every };
  }
  return { unit: 'month', ticks: months };
}

/** A tick's label: "Dec 14" for days and weeks, "Dec 2026" for months (the year only in January and at the start). */
export function dayTickLabel(n: number, unit: TickUnit, first: boolean): string {
  const date = new Date(n * DAY_MS);
  if (unit !== 'month') return date.toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' });
  const withYear = first || date.getUTCMonth() === 0;
  return date.toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', ...(withYear ? { year: 'numeric' } : {}) });
}

const BYTE_UNIT_NAMES = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/**
 * A byte axis up to `max`: one binary unit for all its labels (the largest that `max` reaches), stepped in powers of
 * two of that unit (¼, ½, 1, 2, 4 … 512), so every label is exact in the unit it prints: "768 MiB", "0.25 GiB",
 * never "953.7 MiB".
 */
export function byteAxis(max: number): { increments: number[]; label: (bytes: number) => string } {
  let power = 0;
  while (power < BYTE_UNIT_NAMES.length - 1 && max >= 1024 ** (power + 1)) power += 1;
  const unit = 1024 ** power;
  const increments = [0.125, 0.25, 0.5, ...Array.from({ length: 11 }, (_, k) => 2 ** k)].map((k) => k * unit).filter((step) => step >= 1);
  const label = (bytes: number) =>
    `${Number((bytes / unit).toFixed(3)).toLocaleString(undefined, { maximumFractionDigits: 3 })} ${BYTE_UNIT_NAMES[power]}`;
  return { increments, label };
}

/** Steps for a count axis: 1, 2, 5 × powers of ten (whole numbers only). */
export const COUNT_INCREMENTS: number[] = Array.from({ length: 13 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat();
