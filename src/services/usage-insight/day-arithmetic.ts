const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 of a YYYY-MM-DD calendar day, counted in UTC so that no day is 23 or 25 hours long. */
export function dayNumber(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / MS_PER_DAY);
}

/** The YYYY-MM-DD calendar day of a day number. */
export function dayOfNumber(number: number): string {
  return new Date(number * MS_PER_DAY).toISOString().slice(0, 10);
}
