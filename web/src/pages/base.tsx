import { useApolloClient, useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { useMemo, useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { formatBytes, formatCount } from '../format.js';
import { graphql } from '../graphql.js';
import { Layout } from '../layout.js';
import { PAGE_INFO_FIELDS, Pager, usePaging } from '../pager.js';
import { Link } from '../router.js';
import { AlertsSection, BASE_ALERTS_FIELDS } from '../usage/alerts.js';
import { CountingSection, USAGE_COUNTING_FIELDS } from '../usage/counting.js';
import { ForecastSection, USAGE_FORECAST_FIELDS } from '../usage/forecast.js';
import { LimitsSection, USAGE_LIMITS_FIELDS } from '../usage/limits.js';
import { ScheduleSection } from '../usage/schedule.js';
import { TABLE_COUNT_FIELDS, TableBreakdown } from '../usage/table-breakdown.js';
import { UsageChart, type ChartDay } from '../usage-chart.js';
import { TableScroll } from '../table-scroll.js';

const DAY_FIELDS = graphql(`
  fragment DayFields on SnapshotDay { id date totals { recordCount storageBytes fileCount tableCount } }
`);
const BASE = graphql(
  `
    query UsageBasePage($id: ID!, $from: LocalDate, $first: Int, $after: String, $last: Int, $before: String) {
      usageBase(id: $id) {
        id baseId baseName timezone scheduledHour
        schedule { nextRunAt }
        limits { ...UsageLimitsFields }
        forecast { ...UsageForecastFields }
        counting { ...UsageCountingFields }
        ...BaseAlertsFields
        latestSnapshot { id date tables { ...TableCountFields } }
        chart: snapshots(first: 100, from: $from) { nodes { ...DayFields tables { tableId tableName recordCount storageBytes } } }
        history: snapshots(first: $first, after: $after, last: $last, before: $before) {
          totalCount
          pageInfo { ...PageInfoFields }
          nodes { ...DayFields }
        }
      }
    }
  `,
  [USAGE_LIMITS_FIELDS, USAGE_FORECAST_FIELDS, USAGE_COUNTING_FIELDS, BASE_ALERTS_FIELDS, TABLE_COUNT_FIELDS, DAY_FIELDS, PAGE_INFO_FIELDS],
);
const RUN = graphql(`
  mutation RunUsageCount($id: ID!) {
    runUsageCount(input: { id: $id }) { runResult { status snapshotDate tablesProcessed } }
  }
`);

/** A day recorded for the base (a count made elsewhere: the schedule, the API, another tab): the page asks again. */
const SNAPSHOT_RECORDED = graphql(`
  subscription SnapshotRecorded($id: ID!) { snapshotRecorded(usageBaseId: $id) { id date } }
`);

const RANGES = [7, 30, 90] as const;

/** The first day of the last `days` days (UTC calendar; the base's own days differ by at most one). */
const rangeStart = (days: number) => new Date(Date.now() - (days - 1) * 86_400_000).toISOString().slice(0, 10);

/**
 * One tracked base: "count now", the chart over a day range with the limit, the forecast, the latest day per table,
 * the history, the alerts, the limits, what counting costs, and the schedule.
 */
export function BasePage({ id }: { id: string }) {
  const [range, setRange] = useState<number>(30);
  const paging = usePaging(10);
  const variables = { id, from: rangeStart(range), ...paging.variables };
  const { data, error } = useQuery(BASE, { variables });
  // A count changes the page's base: its days, forecast, counting and alerts.
  const client = useApolloClient();
  const refetch = () => client.refetchQueries({ include: 'active' });
  useSubscription(SNAPSHOT_RECORDED, { variables: { id }, onData: () => void refetch() });
  const [run, running] = useMutation(RUN);
  const base = data?.usageBase;
  const days = useMemo<ChartDay[]>(
    () =>
      base
        ? [...base.chart.nodes]
            .reverse()
            .map((d) => ({ date: d.date, recordCount: d.totals.recordCount, storageBytes: d.totals.storageBytes, tables: d.tables }))
        : [],
    [base],
  );
  const countNow = async () => {
    const result = await run({ variables: { id } }).catch(() => null);
    if (result?.data) await refetch();
  };
  const result = running.data?.runUsageCount.runResult;

  return (
    <Layout title={base?.baseName ?? 'Tracked base'}>
      <p>
        <Link href="/">← All tracked bases</Link>
      </p>
      <ErrorMessage error={error} />
      {data && !base && <p class="empty">This base is not tracked (any more).</p>}
      {base && (
        <>
          <p>
            <button type="button" onClick={countNow} disabled={running.loading}>
              {running.loading ? 'Counting…' : 'Count now'}
            </button>
          </p>
          <div aria-live="polite">
            {running.loading && <p>Counting every table of the base; large bases take a while.</p>}
            {result && (
              <p data-testid="run-result">
                Counted {result.tablesProcessed} tables for {result.snapshotDate}.
              </p>
            )}
          </div>
          <ErrorMessage error={running.error} />
          {base.history.totalCount === 0 ? (
            <p class="empty">Not counted yet: press “Count now”, or wait for the daily count.</p>
          ) : (
            <>
              <div class="field range">
                <label for="range">Days shown</label>
                <select id="range" value={range} onChange={(e) => setRange(Number((e.currentTarget as HTMLSelectElement).value))}>
                  {RANGES.map((n) => (
                    <option key={n} value={n}>
                      Last {n} days
                    </option>
                  ))}
                </select>
              </div>
              {days.length ? (
                <UsageChart days={days} limits={{ recordCount: base.limits.recordLimit, storageBytes: base.limits.storageLimitBytes }} />
              ) : (
                <p class="empty">No count in these days: pick a longer range.</p>
              )}
              <ForecastSection forecasts={base.forecast} />
              {base.latestSnapshot && <TableBreakdown date={base.latestSnapshot.date} tables={base.latestSnapshot.tables} />}
              <TableScroll label="Counted days">
                <table>
                  <caption>Counted days, newest first ({base.history.totalCount} in all)</caption>
                  <thead>
                    <tr>
                      <th scope="col">Day</th>
                      <th scope="col">Records</th>
                      <th scope="col">Files</th>
                      <th scope="col">Attachment storage</th>
                      <th scope="col">Tables</th>
                    </tr>
                  </thead>
                  <tbody>
                    {base.history.nodes.map((day) => (
                      <tr key={day.id}>
                        <td>{day.date}</td>
                        <td>{formatCount(day.totals.recordCount)}</td>
                        <td>{formatCount(day.totals.fileCount)}</td>
                        <td>{formatBytes(day.totals.storageBytes)}</td>
                        <td>{day.totals.tableCount}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <Pager label="Counted day pages" pageInfo={base.history.pageInfo} paging={paging} />
            </>
          )}
          <AlertsSection alerts={base.alerts} />
          <LimitsSection id={base.id} limits={base.limits} />
          <CountingSection id={base.id} counting={base.counting} />
          <ScheduleSection id={base.id} scheduledHour={base.scheduledHour} timezone={base.timezone} nextRunAt={base.schedule.nextRunAt} />
        </>
      )}
    </Layout>
  );
}
