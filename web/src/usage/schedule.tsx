import { useMutation } from '../graphql-hooks.js';
import { useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { Time } from '../format.js';
import { graphql } from '../graphql.js';

const UPDATE_SCHEDULE = graphql(`
  mutation UpdateSchedule($id: ID!, $scheduledHour: Int!, $timezone: TimeZone!) {
    updateUsageBase(input: { id: $id, scheduledHour: $scheduledHour, timezone: $timezone }) {
      usageBase { id scheduledHour timezone schedule { nextRunAt } }
    }
  }
`);

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);
export const ZONES: string[] = [
  ...new Set(['UTC', ...(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [])]),
];
/** The viewer's own zone, as the browser tells it. */
export const VIEWER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** An hour of the day to pick, "00:00" to "23:00". */
export function HourField({ id, label, value, onPick }: { id: string; label: string; value: number; onPick: (hour: number) => void }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onPick(Number((e.currentTarget as HTMLSelectElement).value))}>
        {HOURS.map((h) => (
          <option key={h} value={h}>
            {String(h).padStart(2, '0')}:00
          </option>
        ))}
      </select>
    </div>
  );
}

/** A time zone to pick (IANA names), the current one first when the list lacks it. */
export function ZoneField({ id, label, value, onPick }: { id: string; label: string; value: string; onPick: (zone: string) => void }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onPick((e.currentTarget as HTMLSelectElement).value)}>
        {(ZONES.includes(value) ? ZONES : [value, ...ZONES]).map((z) => (
          <option key={z} value={z}>
            {z}
          </option>
        ))}
      </select>
    </div>
  );
}

interface Props {
  id: string;
  scheduledHour: number;
  timezone: string;
  nextRunAt: string | null;
}

/** The daily count's hour and zone, and its next run in the viewer's zone and in the base's. */
export function ScheduleSection({ id, scheduledHour, timezone, nextRunAt }: Props) {
  const [hour, setHour] = useState(scheduledHour);
  const [zone, setZone] = useState(timezone);
  const [update, { loading, error, data }] = useMutation(UPDATE_SCHEDULE);
  const submit = async (event: Event) => {
    event.preventDefault();
    await update({ variables: { id, scheduledHour: hour, timezone: zone } }).catch(() => null);
  };
  const inBaseZone = nextRunAt
    ? new Date(nextRunAt).toLocaleString(undefined, { timeZone: timezone, dateStyle: 'medium', timeStyle: 'short' })
    : null;
  return (
    <section aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">Daily count</h2>
      <p data-testid="next-run">
        Next run: <Time value={nextRunAt} /> your time{inBaseZone && `, ${inBaseZone} in ${timezone}`}.
      </p>
      <form onSubmit={submit} class="inline schedule">
        <HourField id="schedule-hour" label="Hour" value={hour} onPick={setHour} />
        <ZoneField id="schedule-zone" label="Time zone" value={zone} onPick={setZone} />
        <button type="submit" disabled={loading}>
          Save schedule
        </button>
      </form>
      <ErrorMessage error={error} />
      {data && <p role="status">Schedule saved.</p>}
    </section>
  );
}
