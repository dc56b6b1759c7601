import { useEffect, useRef, useState } from 'preact/hooks';
import type { SchemaType } from '../graphql.js';
import { EVENT_NAMES, SOURCE_NAMES } from '../names.js';
import { ZONES } from '../usage/schedule.js';
import { mergeRecords, useRecordSearch, type KnownRecord } from './record-search.js';
import type { SchemaNames } from './schema-names.js';

export type { KnownRecord };

export type ChangeFilter = SchemaType<'ChangeFilter'>;
type ChangeEventType = SchemaType<'ChangeEventType'>;
type ChangeSource = SchemaType<'ChangeSource'>;

const SOURCES = [
  'CLIENT',
  'PUBLIC_API',
  'FORM_SUBMISSION',
  'FORM_PAGE_SUBMISSION',
  'AUTOMATION',
  'SYSTEM',
  'SYNC',
  'ANONYMOUS_USER',
] satisfies ChangeSource[];
const CHANGE_EVENTS = [
  'RECORD_CREATE',
  'RECORD_UPDATE',
  'RECORD_DELETE',
  'COLUMN_CREATE',
  'COLUMN_UPDATE',
  'COLUMN_DELETE',
  'TABLE_CREATE',
  'TABLE_UPDATE',
  'TABLE_DELETE',
] satisfies ChangeEventType[];

interface Props {
  /** The config: the record list also searches its base's mirror. */
  configId: string;
  /** The monitored base's tables and fields now; null when they could not be read (ids still work). */
  names: SchemaNames | null;
  /** Records named in the changes shown, to pick from by their primary field's value. */
  records: KnownRecord[];
  /** Records the mirror's search found, for the page to name them in this form once a filter is applied. */
  onFound: (records: KnownRecord[]) => void;
  /** The config's zone: the day range's by default. */
  timezone: string;
  applied: ChangeFilter;
  onApply: (filter: ChangeFilter) => void;
}

/** The zones offered for the day range: the config's first, then the viewer's, then every other. */
const zonesFor = (configZone: string) => [...new Set([configZone, Intl.DateTimeFormat().resolvedOptions().timeZone, ...ZONES])];

/** "Suppliers · Name": a field as the list offers it (field names repeat across tables). */
const fieldLabel = (table: string, field: string) => `${table} · ${field}`;

/**
 * A text box with a list to pick from: what is typed is looked up among the labels (then taken as an id as it is),
 * so a name, a primary field's value or a pasted id all work.
 */
function resolve(text: string, options: Array<{ id: string; label: string }>): string | undefined {
  const typed = text.trim();
  if (!typed) return undefined;
  return options.find((option) => option.label === typed)?.id ?? typed;
}
const labelOf = (id: string | null | undefined, options: Array<{ id: string; label: string }>) =>
  id ? (options.find((option) => option.id === id)?.label ?? id) : '';

/**
 * Every filter of the changes endpoint; applied together on submit (empty fields are left out). Table, field and
 * record are picked by name (a field from the base's schema, a record by its primary field's value among the
 * changes seen), and ids are still accepted. The day range is read in a zone the viewer picks, the config's by
 * default; the zone is sent only with a day.
 */
export function ChangeFilters({ configId, names, records: seen, onFound, timezone, applied, onApply }: Props) {
  const fields = (names?.tables ?? []).flatMap((table) =>
    table.fields.map((field) => ({ id: field.restId, label: fieldLabel(table.name, field.name) })),
  );
  // From the filter in force: the page shows this form again once the filtered page has loaded.
  const [draft, setDraft] = useState<ChangeFilter>(applied);
  const [fieldText, setFieldText] = useState(labelOf(applied.fieldId, fields));
  const [recordText, setRecordText] = useState(labelOf(applied.recordId, seen));
  // Records found by earlier searches stay pickable (a picked label is searched no more).
  const found = useRef(new Map<string, KnownRecord>());
  const known = mergeRecords(seen, [...found.current.values()]);
  const matches = useRecordSearch(
    configId,
    recordText,
    (label) => known.some((record) => record.label === label),
    names,
    draft.tableId ?? undefined,
  );
  useEffect(() => {
    for (const match of matches) found.current.set(match.id, match);
    if (matches.length) onFound(matches);
  }, [matches]);
  // The mirror's matches for what is typed first, then the records seen and found before.
  const records = mergeRecords(matches, known);
  const zone = draft.timezone ?? timezone;
  const set = (key: keyof ChangeFilter) => (event: Event) =>
    setDraft({ ...draft, [key]: (event.currentTarget as HTMLInputElement).value || undefined });
  const submit = (event: Event) => {
    event.preventDefault();
    const picked = { ...draft, fieldId: resolve(fieldText, fields), recordId: resolve(recordText, [...records, ...fields]) };
    const { timezone: _picked, ...filter } = Object.fromEntries(Object.entries(picked).filter(([, v]) => v)) as ChangeFilter;
    onApply(filter.from || filter.to ? { ...filter, timezone: zone } : filter);
  };
  const options = <V extends string>(values: V[], label: (value: V) => string, none: string) => [
    <option key="" value="">
      {none}
    </option>,
    ...values.map((v) => (
      <option key={v} value={v}>
        {label(v)}
      </option>
    )),
  ];
  return (
    <form onSubmit={submit} class="filters" aria-label="Filter changes">
      <div class="field">
        <label for="f-event">Event</label>
        <select id="f-event" value={draft.eventType ?? ''} onChange={set('eventType')}>
          {options(CHANGE_EVENTS, (e) => EVENT_NAMES[e], 'Any event')}
        </select>
      </div>
      <div class="field">
        <label for="f-kind">Kind</label>
        <select id="f-kind" value={draft.kind ?? ''} onChange={set('kind')}>
          {options(
            ['RECORD', 'SCHEMA'] satisfies Array<SchemaType<'ChangeKind'>>,
            (k) => (k === 'RECORD' ? 'Records' : 'Schema'),
            'Records and schema',
          )}
        </select>
      </div>
      <div class="field">
        <label for="f-table">Table</label>
        <select id="f-table" value={draft.tableId ?? ''} onChange={set('tableId')}>
          <option value="">Any table</option>
          {draft.tableId && !names?.table(draft.tableId) && <option value={draft.tableId}>{draft.tableId}</option>}
          {(names?.tables ?? []).map((t) => (
            <option key={t.restId} value={t.restId}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="f-source">Source</label>
        <select id="f-source" value={draft.source ?? ''} onChange={set('source')}>
          {options(SOURCES, (s) => SOURCE_NAMES[s], 'Any source')}
        </select>
      </div>
      <div class="field">
        <label for="f-record">Record</label>
        <input
          id="f-record"
          list="f-record-list"
          value={recordText}
          onInput={(e) => setRecordText((e.currentTarget as HTMLInputElement).value)}
          placeholder="Primary field value or rec…"
          autocomplete="off"
        />
        <datalist id="f-record-list">
          {records.map((record) => (
            <option key={record.id} value={record.label} />
          ))}
        </datalist>
      </div>
      <div class="field">
        <label for="f-field">Changed field</label>
        <input
          id="f-field"
          list="f-field-list"
          value={fieldText}
          onInput={(e) => setFieldText((e.currentTarget as HTMLInputElement).value)}
          placeholder="Field name or fld…"
          autocomplete="off"
        />
        <datalist id="f-field-list">
          {fields.map((field) => (
            <option key={field.id} value={field.label} />
          ))}
        </datalist>
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
