/** An instant in the viewer's zone, with the UTC time on hover. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <>never</>;
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} title={`${date.toISOString().replace('T', ' ').slice(0, 19)} UTC`}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
    </time>
  );
}

// Binary units: the platform's plan limits are whole GiB (1 GiB shows as "1 GiB", not "1.1 GB").
const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? Math.round(value) : Number(value.toFixed(1))} ${UNITS[unit]}`;
}

export const formatCount = (count: number) => count.toLocaleString();
