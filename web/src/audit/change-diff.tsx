type Cells = Record<string, unknown> | null;

const show = (value: unknown) => (value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** Before and after of a change, one line per key that differs (cells by field id, or a definition's properties). */
export function ChangeDiff({ before, after }: { before: Cells; after: Cells }) {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (key) => JSON.stringify(before?.[key]) !== JSON.stringify(after?.[key]),
  );
  if (keys.length === 0) return null;
  return (
    <dl class="diff">
      {keys.map((key) => (
        <div key={key}>
          <dt>{key}</dt>
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
