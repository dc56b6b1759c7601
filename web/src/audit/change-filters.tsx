import { useQuery } from '@apollo/client/react';
import { useState } from 'preact/hooks';
import { graphql, type SchemaType } from '../graphql.js';
import { ZONES } from '../usage/schedule.js';
import { EVENTS } from '../webhooks/create-webhook.js';

export type ChangeFilter = SchemaType<'ChangeFilter'>;

const SOURCES = [
  'CLIENT',
  'PUBLIC_API',
  'FORM_SUBMISSION',
  'FORM_PAGE_SUBMISSION',
  'AUTOMATION',
  'SYSTEM',
  'SYNC',
  'ANONYMOUS_USER',
] satisfies Array<SchemaType<'ChangeSource'>>;
/** A webhook's events less usage alerts, which are not changes. */
const CHANGE_EVENTS = EVENTS.filter((event): event is SchemaType<'ChangeEventType'> => event !== 'USAGE_THRESHOLD');

const TABLES = graphql(`
  query ChangeFilterTables($baseId: ID!) { airtableTables(baseId: $baseId) { id restId name } }
`);

interface Props {
  baseId: string;
  /** The config's zone: the day range's by default. */
  timezone: string;
  applied: ChangeFilter;
  onApply: (filter: ChangeFilter) => void;
}

/** The zones offered for the day range: the config's first, then the viewer's, then every other. */
const zonesFor = (configZone: string) => [...new Set([configZone, Intl.DateTimeFormat().resolvedOptions().timeZone, ...ZONES])];

/**
 * Every filter of the changes endpoint; applied together on submit (empty fields are left out). The day range is
 * read in a zone the viewer picks, the config's by default; the zone is sent only with a day.
 */
export function ChangeFilters({ baseId, timezone, applied, onApply }: Props) {
  const tables = useQuery(TABLES, { variables: { baseId } }).data?.airtableTables ?? [];
  // From the filter in force: the page shows this form again once the filtered page has loaded.
  const [draft, setDraft] = useState<ChangeFilter>(applied);
  const zone = draft.timezone ?? timezone;
  const set = (key: keyof ChangeFilter) => (event: Event) =>
    setDraft({ ...draft, [key]: (event.currentTarget as HTMLInputElement).value || undefined });
  const submit = (event: Event) => {
    event.preventDefault();
    const { timezone: _picked, ...filter } = Object.fromEntries(Object.entries(draft).filter(([, v]) => v)) as ChangeFilter;
    onApply(filter.from || filter.to ? { ...filter, timezone: zone } : filter);
  };
  const options = (values: string[], none: string) => [
    <option key="" value="">
      {none}
    </option>,
    ...values.map((v) => (
      <option key={v} value={v}>
        {v.toLowerCase().replace(/_/g, ' ')}
      </option>
    )),
  ];
  return (
    <form onSubmit={submit} class="filters" aria-label="Filter changes">
      <div class="field">
        <label for="f-event">Event</label>
        <select id="f-event" value={draft.eventType ?? ''} onChange={set('eventType')}>
          {options(CHANGE_EVENTS, 'Any event')}
        </select>
      </div>
      <div class="field">
        <label for="f-kind">Kind</label>
        <select id="f-kind" value={draft.kind ?? ''} onChange={set('kind')}>
          {options(['RECORD', 'SCHEMA'] satisfies Array<SchemaType<'ChangeKind'>>, 'Records and schema')}
        </select>
      </div>
      <div class="field">
        <label for="f-table">Table</label>
        <select id="f-table" value={draft.tableId ?? ''} onChange={set('tableId')}>
          <option value="">Any table</option>
          {tables.map((t) => (
            <option key={t.restId} value={t.restId}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="f-source">Source</label>
        <select id="f-source" value={draft.source ?? ''} onChange={set('source')}>
          {options(SOURCES, 'Any source')}
        </select>
      </div>
      <div class="field">
        <label for="f-record">Record or field id</label>
        <input id="f-record" value={draft.recordId ?? ''} onInput={set('recordId')} placeholder="rec…" />
      </div>
      <div class="field">
        <label for="f-field">Changed field id</label>
        <input id="f-field" value={draft.fieldId ?? ''} onInput={set('fieldId')} placeholder="fld…" />
      </div>
      <div class="field">
        <label for="f-user">User e-mail</label>
        <input id="f-user" type="email" value={draft.userEmail ?? ''} onInput={set('userEmail')} />
      </div>
      <div class="field">
        <label for="f-zone">Zone of the days</label>
        <select id="f-zone" value={zone} onChange={set('timezone')}>
          {zonesFor(timezone).map((z) => (
            <option key={z} value={z}>
              {z === timezone ? `${z} (the config’s)` : z}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="f-from">From day ({zone})</label>
        <input id="f-from" type="date" value={draft.from ?? ''} onInput={set('from')} />
      </div>
      <div class="field">
        <label for="f-to">To day ({zone})</label>
        <input id="f-to" type="date" value={draft.to ?? ''} onInput={set('to')} />
      </div>
      <div class="apply">
        <button type="submit">Apply filters</button>
      </div>
    </form>
  );
}
