import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import { formatBytes, formatCount, formatDay } from './format.js';
import { byteAxis, COUNT_INCREMENTS, dayNumber, dayOfNumber, dayTickLabel, dayTicks } from './usage/chart-scale.js';
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
const AXIS_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const HEIGHT = 260;

/** How wide the widest label is, so the axis is made wide enough and no label is cut. */
let measure: CanvasRenderingContext2D | null = null;
function labelWidth(labels: Array<string | number | null>): number {
  measure ??= document.createElement('canvas').getContext('2d');
  if (!measure) return 60;
  measure.font = AXIS_FONT;
  return Math.max(0, ...labels.map((label) => (label === null ? 0 : measure!.measureText(String(label)).width)));
}

/** uPlot (~20 KB gzipped) is fetched when a chart is first drawn: only a base's page has one. */
let uPlotModule: Promise<{ default: typeof uPlot }> | undefined;
/** Once loaded, a redraw (another metric, range or limit) replaces the plot at once: no moment without a chart. */
let loadedUPlot: typeof uPlot | undefined;
const loadUPlot = () =>
  (uPlotModule ??= import('uplot').then((module) => {
    loadedUPlot = module.default;
    return module;
  }));

interface Props {
  /** The counted days, oldest first. */
  days: ChartDay[];
  /** The first day of the range shown (a day before the first count is drawn as a gap). */
  from: string;
  /** The base's zone: its days are the x axis' days. */
  timezone: string;
  limits?: ChartLimits;
}

/**
 * Records or attachment storage per day of the base's zone, stacked per table (uPlot: canvas, loaded on first use; each
 * table's band is filled down to the one under it), with the base's limit of that metric as a dashed line. The x
 * axis counts days (day, week or month ticks by what fits); a day without a count is a gap, not a line across it.
 * The hover legend names the day, its total and each table's value. The drawn totals are on the figure as
 * `data-series` JSON (and its tick labels as `data-x-ticks` / `data-y-ticks`), and the numbers are in the tables
 * under it for screen readers; the limit is in the chart's accessible name.
 */
export function UsageChart({ days, from, timezone, limits = NO_LIMITS }: Props) {
  const [metric, setMetric] = useState<Metric>('recordCount');
  const [hovered, setHovered] = useState<number | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const figure = useRef<HTMLElement>(null);
  const limit = limits[metric];
  const format = metric === 'recordCount' ? formatCount : formatBytes;

  // Every day of the range, oldest first, with each table's running sum (null on a day without a count: a gap).
  const model = useMemo(() => {
    const { tables, stacked } = stackPerTable(days, metric);
    const first = Math.min(dayNumber(from), ...days.map((d) => dayNumber(d.date)));
    const today = dayNumber(new Date().toISOString().slice(0, 10));
    const last = Math.max(today, ...days.map((d) => dayNumber(d.date)));
    const xs = Array.from({ length: last - first + 1 }, (_, i) => first + i);
    const at = new Map(days.map((d, i) => [dayNumber(d.date), i]));
    const series = stacked.map((values) => xs.map((x) => (at.has(x) ? values[at.get(x)!] : null)));
    const totals = xs.map((x) => (at.has(x) ? days[at.get(x)!][metric] : null));
    return { tables, xs, series, totals, at };
  }, [days, metric, from]);

  useEffect(() => {
    const element = box.current;
    if (!element || days.length === 0) return;
    let plot: uPlot | undefined;
    let resize: ResizeObserver | undefined;
    let gone = false;
    const draw = (UPlot: typeof uPlot) => {
      if (gone) return;
      plot = drawPlot(UPlot, element);
      resize = new ResizeObserver(() => plot?.setSize({ width: Math.max(260, element.clientWidth), height: HEIGHT }));
      resize.observe(element);
    };
    if (loadedUPlot) draw(loadedUPlot);
    else void loadUPlot().then(({ default: UPlot }) => draw(UPlot));
    return () => {
      gone = true;
      resize?.disconnect();
      plot?.destroy();
    };
  }, [model, limit, metric, days.length]);

  const drawPlot = (UPlot: typeof uPlot, element: HTMLDivElement) => {
    const { tables, xs, series } = model;
    const top = Math.max(0, ...series.flat().map((v) => v ?? 0), limit ?? 0) * 1.1 || 1;
    const bytes = byteAxis(top);
    const yLabel = metric === 'recordCount' ? formatCount : bytes.label;
    const record = (name: 'xTicks' | 'yTicks', labels: Array<string | number | null>) => {
      if (figure.current) figure.current.dataset[name] = JSON.stringify(labels);
    };
    return new UPlot(
      {
        width: Math.max(260, element.clientWidth),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          // Day numbers, not instants: a day of the base's zone is one step, whatever the viewer's zone.
          x: { time: false, range: () => [xs[0] - 0.5, xs[xs.length - 1] + 0.5] },
          // A stack reads from zero, and reaches the limit.
          y: { range: () => [0, top] },
        },
        series: [
          {},
          ...tables.map(([, name], i) => ({
            label: name,
            stroke: COLORS[i % COLORS.length],
            fill: `${COLORS[i % COLORS.length]}33`,
            width: 1.5,
            spanGaps: false,
            points: { show: xs.length <= 45, size: 5 },
          })),
        ],
        bands: tables.slice(1).map((_, i) => ({ series: [i + 2, i + 1] as [number, number] })),
        axes: [
          {
            font: AXIS_FONT,
            splits: (u) => dayTicks(xs[0], xs[xs.length - 1], u.bbox.width / devicePixelRatio || element.clientWidth).ticks,
            values: (u, splits) => {
              const { unit } = dayTicks(xs[0], xs[xs.length - 1], u.bbox.width / devicePixelRatio || element.clientWidth);
              const labels = splits.map((n, i) => dayTickLabel(n, unit, i === 0));
              record('xTicks', labels);
              return labels;
            },
            grid: { show: false },
          },
          {
            font: AXIS_FONT,
            incrs: metric === 'recordCount' ? COUNT_INCREMENTS : bytes.increments,
            values: (_u, splits) => {
              const labels = splits.map(yLabel);
              record('yTicks', labels);
              return labels;
            },
            size: (_u, values) => Math.ceil(labelWidth(values ?? [])) + 18,
            grid: { stroke: '#e5e7eb', width: 1 },
          },
        ],
        hooks: {
          // Across the whole plot, so it shows over a single counted day too.
          draw: [(u) => void (limit !== null && drawLimit(u, limit))],
          setCursor: [(u) => setHovered(u.cursor.idx ?? null)],
        },
      },
      [xs, ...series],
      element,
    );
  };

  const totals = days.map(({ date, recordCount, storageBytes }) => ({ date, recordCount, storageBytes }));
  const what = metric === 'recordCount' ? 'Records' : 'Attachment storage';
  const limitText = limit === null ? '' : `, and the limit of ${format(limit)} as a dashed red line`;
  return (
    <figure class="chart" ref={figure} data-testid="usage-chart" data-series={JSON.stringify(totals)} data-limit={limit ?? undefined}>
      <div class="chart-controls">
        <fieldset class="metric">
          <legend>Show</legend>
          {(['recordCount', 'storageBytes'] as const).map((value) => (
            <label key={value}>
              <input type="radio" name="metric" value={value} checked={metric === value} onChange={() => setMetric(value)} />
              {value === 'recordCount' ? 'Records' : 'Attachment storage'}
            </label>
          ))}
        </fieldset>
      </div>
      <div
        ref={box}
        class="chart-plot"
        role="img"
        aria-label={`${what} per table over ${days.length} counted days${limitText}; the numbers are in the tables below`}
      />
      <ChartLegend model={model} index={hovered} format={format} />
      <figcaption>
        {what} per day, stacked per table; days of the base’s zone, {timezone}. A gap is a day without a count
        {limit === null ? '' : `; the dashed line is the limit, ${format(limit)}`}.
      </figcaption>
    </figure>
  );
}

/** The hovered day (the newest counted day when nothing is hovered): its date, its total, and each table's own value. */
function ChartLegend({
  model,
  index,
  format,
}: {
  model: { tables: Array<[string, string]>; xs: number[]; series: Array<Array<number | null>>; totals: Array<number | null> };
  index: number | null;
  format: (n: number) => string;
}) {
  const newest = model.totals.findLastIndex((total) => total !== null);
  const i = index ?? newest;
  if (i < 0 || i >= model.xs.length) return null;
  const total = model.totals[i];
  return (
    <div class="chart-legend" data-testid="chart-legend" aria-live="off">
      <strong>{formatDay(dayOfNumber(model.xs[i]))}</strong>
      {total === null ? (
        <span class="hint">not counted</span>
      ) : (
        <>
          <span>
            Total <span class="figure">{format(total)}</span>
          </span>
          {model.tables.map(([id, name], t) => {
            const value = model.series[t][i];
            const below = t ? model.series[t - 1][i] : 0;
            return (
              <span key={id}>
                <span class="swatch" style={{ background: COLORS[t % COLORS.length] }} aria-hidden="true" />
                {name} <span class="figure">{value === null ? '—' : format(value - (below ?? 0))}</span>
              </span>
            );
          })}
        </>
      )}
    </div>
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
