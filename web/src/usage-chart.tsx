import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatBytes, formatCount } from './format.js';

export interface ChartDay {
  date: string;
  recordCount: number;
  storageBytes: number;
}

/**
 * Records and attachment storage over time (uPlot: canvas, ~20 KB gzipped). The data it draws is also on the figure
 * as `data-series` JSON, and the table under it gives the same numbers to screen readers.
 */
export function UsageChart({ days }: { days: ChartDay[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element || days.length === 0) return;
    const x = days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        series: [
          {},
          { label: 'Records', stroke: '#1d4ed8', width: 2, scale: 'records', value: (_u, v) => (v == null ? '—' : formatCount(v)) },
          { label: 'Storage', stroke: '#b45309', width: 2, scale: 'bytes', value: (_u, v) => (v == null ? '—' : formatBytes(v)) },
        ],
        axes: [
          {},
          { scale: 'records', values: (_u, values) => values.map(formatCount) },
          { scale: 'bytes', side: 1, grid: { show: false }, values: (_u, values) => values.map(formatBytes) },
        ],
      },
      [x, days.map((day) => day.recordCount), days.map((day) => day.storageBytes)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days]);
  return (
    <figure class="chart" data-testid="usage-chart" data-series={JSON.stringify(days)}>
      <div ref={box} role="img" aria-label={`Records and attachment storage over ${days.length} counted days; the numbers are in the table below`} />
      <figcaption>Records (left axis) and attachment storage (right axis) per counted day, UTC dates.</figcaption>
    </figure>
  );
}
