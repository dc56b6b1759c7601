/** An instant in the viewer's zone, with the UTC time on hover. */
export function Time({ value, never = 'never' }: { value: string | null | undefined; never?: string }) {
  if (!value) return <>{never}</>;
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} title={`${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}

/** A calendar day (YYYY-MM-DD, a day of the base's zone) as the viewer reads days: "Dec 14, 2026". */
export function formatDay(day: string, style: 'medium' | 'short' = 'medium'): string {
  const date = new Date(`${day}T00:00:00Z`);
  return style === 'medium'
    ? date.toLocaleDateString(undefined, { timeZone: 'UTC', dateStyle: 'medium' })
    : date.toLocaleDateString(undefined, { timeZone: 'UTC', month: 'short', day: 'numeric' });
}

/** A calendar day in a <time> element. */
export function Day({ value }: { value: string }) {
  return <time dateTime={value}>{formatDay(value)}</time>;
}

// Binary units: the platform's plan limits are whole GiB (1 GiB shows as "1 GiB", not "1.1 GB").
export const BYTE_UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? Math.round(value) : Number(value.toFixed(1))} ${BYTE_UNITS[unit]}`;
}

export const formatCount = (count: number) => count.toLocaleString();

/** A share of a limit: one decimal under 10 %, whole percents above ("4.5 %", "61 %"). */
export const formatPercent = (percent: number) => `${Number(percent.toFixed(percent < 10 ? 1 : 0)).toLocaleString()} %`;
