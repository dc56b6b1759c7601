import { Instant, ISO_INSTANT } from './instant.js';
import type { MirrorNames } from './mirror-names.js';

export type Cells = Record<string, unknown>;

/** A part of a cell a person reads: an attachment by file name, a collaborator by name, a select or link by itself. */
function part(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'checked' : 'unchecked';
  if (typeof value !== 'object') return String(value);
  const named = value as Record<string, unknown>;
  for (const key of ['filename', 'name', 'email', 'text', 'label']) if (typeof named[key] === 'string') return named[key] as string;
  return JSON.stringify(value);
}

/** A cell's value as the upstream's REST API gives it, readable; an empty cell is a dash. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return '—';
  return Array.isArray(value) ? value.map(part).join(', ') : part(value);
}

/** A cell as a person reads it: an instant in the viewer's zone, anything else as text. */
export function CellValue({ value }: { value: unknown }) {
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return <Instant value={value} />;
  return <>{cellText(value)}</>;
}

/** A field by its name, or by its id marked as no longer in the table's schema. */
export function FieldName({ id, names }: { id: string; names: MirrorNames }) {
  const name = names.field(id);
  if (name) return <>{name}</>;
  return (
    <>
      <code>{id}</code> <span class="hint">(deleted field)</span>
    </>
  );
}

/** Every cell of a record, by field name in the table's order. */
export function RecordFields({ tableId, fields, names }: { tableId: string; fields: Cells; names: MirrorNames }) {
  const ids = names.ordered(tableId, Object.keys(fields));
  if (ids.length === 0) return <p class="empty">Every field is empty.</p>;
  return (
    <dl class="diff fields-grid">
      {ids.map((id) => (
        <div key={id}>
          <dt>
            <FieldName id={id} names={names} />
          </dt>
          <dd>
            <CellValue value={fields[id]} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** How the two sides of a diff are read out (the struck-out old value, the new one). */
const HISTORY_WORDS = ['was', 'now'] as const;

/**
 * The cells that differ between two whole records, by field name: old value struck out → new value (only the fields
 * `only` names, when given).
 */
export function VersionDiff({
  tableId,
  before,
  after,
  names,
  only,
  words = HISTORY_WORDS,
}: {
  tableId: string;
  before: Cells;
  after: Cells;
  names: MirrorNames;
  only?: readonly string[];
  words?: readonly [string, string];
}) {
  const changed = names
    .ordered(tableId, [...Object.keys(before), ...Object.keys(after)])
    .filter((id) => (!only || only.includes(id)) && JSON.stringify(before[id]) !== JSON.stringify(after[id]));
  if (changed.length === 0) return <p class="hint">No cell changed.</p>;
  return (
    <dl class="diff fields-grid">
      {changed.map((id) => (
        <div key={id}>
          <dt>
            <FieldName id={id} names={names} />
          </dt>
          <dd>
            <del>
              <span class="visually-hidden">{words[0]} </span>
              <CellValue value={before[id]} />
            </del>
            {' → '}
            <ins>
              <span class="visually-hidden">{words[1]} </span>
              <CellValue value={after[id]} />
            </ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}
