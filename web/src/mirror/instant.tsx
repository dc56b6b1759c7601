/**
 * An instant in the viewer's zone to the second (versions of a record are often seconds apart), the UTC time with
 * milliseconds on hover.
 */
export function Instant({ value }: { value: string | null | undefined }) {
  if (!value) return <>never</>;
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} title={`${date.toISOString().replace('T', ' ').slice(0, 23)} UTC`}>
      {date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })}
    </time>
  );
}

/** A cell holding an instant (createdTime, lastModifiedTime, dateTime fields) as the REST API writes it. */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;
