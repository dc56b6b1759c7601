import { useMutation } from '@apollo/client/react';
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
        <div class="field">
          <label for="schedule-hour">Hour</label>
          <select id="schedule-hour" value={hour} onChange={(e) => setHour(Number((e.currentTarget as HTMLSelectElement).value))}>
            {HOURS.map((h) => (
              <option key={h} value={h}>
                {String(h).padStart(2, '0')}:00
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="schedule-zone">Time zone</label>
          <select id="schedule-zone" value={zone} onChange={(e) => setZone((e.currentTarget as HTMLSelectElement).value)}>
            {(ZONES.includes(zone) ? ZONES : [zone, ...ZONES]).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" disabled={loading}>
          Save schedule
        </button>
      </form>
      <ErrorMessage error={error} />
      {data && <p role="status">Schedule saved.</p>}
    </section>
  );
}
