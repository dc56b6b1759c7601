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


const COLORS = ['#1d4ed8', '#b45309', '#047857', '#7c3aed', '#be123c', '#0e7490', '#4d7c0f', '#a16207'];

/**
 * Records or attachment storage per counted day, stacked per table (uPlot: canvas, ~20 KB gzipped; each table's band
 * is filled down to the one under it). The drawn totals are on the figure as `data-series` JSON, and the numbers are
 * in the tables under it for screen readers.
 */
export function UsageChart({ days }: { days: ChartDay[] }) {
  const [metric, setMetric] = useState<Metric>('recordCount');
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || days.length === 0) return;
    const format = metric === 'recordCount' ? formatCount : formatBytes;
    const { tables, stacked } = stackPerTable(days, metric);
    const x = days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        // A single counted day gets a day on either side (uPlot would stretch it to 86,400,000 s, taking seconds for ms).
        scales: { x: { time: true, range: (_u, min, max) => (days.length === 1 ? [x[0] - 86_400, x[0] + 86_400] : [min, max]) },
          // A stack reads from zero.
          y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
        },
        series: [
          {},
          ...tables.map(([, name], i) => ({
            label: name,
            stroke: COLORS[i % COLORS.length],
            fill: `${COLORS[i % COLORS.length]}33`,
            width: 1.5,
            // The legend shows the table's own value, not the running sum it is drawn at.
            value: (_u: uPlot, v: number | null, _s: number, d: number | null) => (v == null || d == null ? '—' : format(v - (i ? stacked[i - 1][d] : 0))),
          })),
        ],
        bands: tables.slice(1).map((_, i) => ({ series: [i + 2, i + 1] as [number, number] })),
        axes: [{}, { values: (_u, values) => values.map(format), size: 70 }],
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
  }, [days, metric]);
  const totals = days.map(({ date, recordCount, storageBytes }) => ({ date, recordCount, storageBytes }));
  return (
    <figure class="chart" data-testid="usage-chart" data-series={JSON.stringify(totals)}>
      <fieldset class="metric">
        <legend>Show</legend>
        {(['recordCount', 'storageBytes'] as const).map((value) => (
          <label key={value}>
            <input type="radio" name="metric" value={value} checked={metric === value} onChange={() => setMetric(value)} />{' '}
            {value === 'recordCount' ? 'Records' : 'Attachment storage'}
          </label>
        ))}
      </fieldset>
      <div ref={box} role="img" aria-label={`${metric === 'recordCount' ? 'Records' : 'Attachment storage'} per table over ${days.length} counted days; the numbers are in the tables below`} />
      <figcaption>{metric === 'recordCount' ? 'Records' : 'Attachment storage'} per counted day, stacked per table (UTC dates).</figcaption>
    </figure>
  );
}
