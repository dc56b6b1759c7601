import type { SchemaNames } from './schema-names.js';

type Cells = Record<string, unknown> | null;

const show = (value: unknown) => (value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/**
 * A key of a change's before/after by name: a record's cells are keyed by field id (named from the base's schema;
 * one missing from it was deleted, and keeps its id, marked), a field's or table's definition by property name.
 */
export function KeyName({ id, names }: { id: string; names: SchemaNames | null }) {
  if (!id.startsWith('fld')) return <>{id}</>;
  const field = names?.field(id);
  if (field) return <>{field.name}</>;
  return (
    <>
      <code>{id}</code> <span class="badge quiet">{names ? 'deleted field' : 'name unknown'}</span>
    </>
  );
}

/** Before and after of a change, one line per key that differs (cells by field name, or a definition's properties). */
export function ChangeDiff({ before, after, names }: { before: Cells; after: Cells; names: SchemaNames | null }) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (key) => JSON.stringify(before?.[key]) !== JSON.stringify(after?.[key]),
  );
  if (keys.length === 0) return null;
  return (
    <dl class="diff">
      {keys.map((key) => (
        <div key={key}>
          <dt>
            <KeyName id={key} names={names} />
          </dt>
          <dd>
            {before && <del>{show(before[key])}</del>}
            {before && after && ' → '}
            {after && <ins>{show(after[key])}</ins>}
          </dd>
        </div>
      ))}
    </dl>
  );
}
