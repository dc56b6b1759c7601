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

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

export const formatCount = (count: number) => count.toLocaleString();
