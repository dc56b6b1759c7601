/** A 30-day trend of record counts as a small SVG line (too small for a chart library); its numbers are in its label. */
export function Sparkline({ values, label }: { values: number[]; label: string }) {
  if (values.length < 2) return <span class="empty">{values.length ? 'one day' : '—'}</span>;
  const width = 96;
  const height = 24;
  const min = Math.min(...values);
  const span = Math.max(...values) - min || 1;
  const points = values.map(
    (value, i) => `${((i / (values.length - 1)) * width).toFixed(1)},${(height - 2 - ((value - min) / span) * (height - 4)).toFixed(1)}`,
  );
  return (
    <svg
      class="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
      data-values={values.join(',')}
    >
      <polyline points={points.join(' ')} fill="none" stroke="currentColor" stroke-width="1.5" />
    </svg>
  );
}
