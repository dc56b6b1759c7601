import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatBytes, formatCount } from './format.js';
import { stackPerTable, type Metric } from './usage/stack.js';

export interface ChartDay {
  date: string;
  recordCount: number;
  storageBytes: number;
  tables: Array<{ tableId: string; tableName: string; recordCount: number; storageBytes: number }>;
}

/** The base's limit per metric; null: none. */
export type ChartLimits = Record<Metric, number | null>;

const NO_LIMITS: ChartLimits = { recordCount: null, storageBytes: null };
const LIMIT_COLOR = '#b42318';

const COLORS = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490', '#4d7c0f', '#a16207'];

/**
 * Records or attachment storage per counted day, stacked per table (uPlot: canvas, ~20 KB gzipped; each table's band
 * is filled down to the one under it), and the base's limit of that metric as a dashed line (the scale reaches it).
 * The drawn totals are on the figure as `data-series` JSON, and the numbers are in the tables under it for screen
 * readers; the limit is in the chart's accessible name.
 */
export function UsageChart({ days, limits = NO_LIMITS }: { days: ChartDay[]; limits?: ChartLimits }) {
  const [metric, setMetric] = useState<Metric>('recordCount');
  const box = useRef<HTMLDivElement>(null);
  const limit = limits[metric];
  const format = metric === 'recordCount' ? formatCount : formatBytes;
  useEffect(() => {
    const element = box.current;
    if (!element || days.length === 0) return;
    const { tables, stacked } = stackPerTable(days, metric);
    const x = days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        // A single counted day gets a day on either side (uPlot would stretch it to 86,400,000 s, taking seconds for ms).
        scales: {
          x: { time: true, range: (_u, min, max) => (days.length === 1 ? [x[0] - 86_400, x[0] + 86_400] : [min, max]) },
          // A stack reads from zero.
          y: { range: (_u, _min, max) => [0, Math.max(max, limit ?? 0) * 1.1 || 1] },
        },
        series: [
          {},
          ...tables.map(([, name], i) => ({
            label: name,
            stroke: COLORS[i % COLORS.length],
            fill: `${COLORS[i % COLORS.length]}33`,
            width: 1.5,
            // The legend shows the table's own value, not the running sum it is drawn at.
            value: (_u: uPlot, v: number | null, _s: number, d: number | null) =>
              v == null || d == null ? '—' : format(v - (i ? stacked[i - 1][d] : 0)),
          })),
        ],
        bands: tables.slice(1).map((_, i) => ({ series: [i + 2, i + 1] as [number, number] })),
        axes: [{}, { values: (_u, values) => values.map(format), size: 70 }],
        // Across the whole plot, so it shows over a single counted day too (a series of one point draws no line).
        hooks: { draw: [(u) => void (limit !== null && drawLimit(u, limit))] },
      },
      [x, ...stacked],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, metric, limit]);
  const totals = days.map(({ date, recordCount, storageBytes }) => ({ date, recordCount, storageBytes }));
  const what = metric === 'recordCount' ? 'Records' : 'Attachment storage';
  const limitText = limit === null ? '' : `, and the limit of ${format(limit)} as a dashed red line`;
  return (
    <figure class="chart" data-testid="usage-chart" data-series={JSON.stringify(totals)} data-limit={limit ?? undefined}>
      <fieldset class="metric">
        <legend>Show</legend>
        {(['recordCount', 'storageBytes'] as const).map((value) => (
          <label key={value}>
            <input type="radio" name="metric" value={value} checked={metric === value} onChange={() => setMetric(value)} />{' '}
            {value === 'recordCount' ? 'Records' : 'Attachment storage'}
          </label>
        ))}
      </fieldset>
      <div
        ref={box}
        role="img"
        aria-label={`${what} per table over ${days.length} counted days${limitText}; the numbers are in the tables below`}
      />
      <figcaption>
        {what} per counted day, stacked per table (UTC dates){limit === null ? '' : `; the dashed line is the limit, ${format(limit)}`}.
      </figcaption>
    </figure>
  );
}

function drawLimit(u: uPlot, limit: number) {
  const y = Math.round(u.valToPos(limit, 'y', true));
  const ratio = devicePixelRatio;
  const { ctx, bbox } = u;
  ctx.save();
  ctx.strokeStyle = LIMIT_COLOR;
  ctx.lineWidth = 2 * ratio;
  ctx.setLineDash([6 * ratio, 4 * ratio]);
  ctx.beginPath();
  ctx.moveTo(bbox.left, y);
  ctx.lineTo(bbox.left + bbox.width, y);
  ctx.stroke();
  ctx.restore();
}
