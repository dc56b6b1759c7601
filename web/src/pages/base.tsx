import { useMutation, useQuery, useRefetchShown, useSubscription } from '../graphql-hooks.js';
import { useMemo, useRef, useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { Day, formatBytes, formatCount } from '../format.js';
import { graphql } from '../graphql.js';
import { Layout } from '../layout.js';
import { plural } from '../names.js';
import { PAGE_INFO_FIELDS, Pager, usePaging } from '../pager.js';
import { Link } from '../router.js';
import { AlertsSection, BASE_ALERTS_FIELDS } from '../usage/alerts.js';
import { BASE_SCHEDULE_FIELDS, BaseSummary } from '../usage/base-summary.js';
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
        schedule { ...BaseScheduleFields }
        limits { ...UsageLimitsFields }
        forecast { ...UsageForecastFields }
        counting { ...UsageCountingFields }
        ...BaseAlertsFields
        latestSnapshot { id date totals { recordCount storageBytes } tables { ...TableCountFields } }
        chart: snapshots(first: 100, from: $from) { nodes { ...DayFields tables { tableId tableName recordCount storageBytes } } }
        history: snapshots(first: $first, after: $after, last: $last, before: $before) {
          totalCount
          pageInfo { ...PageInfoFields }
          nodes { ...DayFields }
        }
      }
      monitoringConfigs(first: 100) { nodes { id baseId health { state } } }
    }
  `,
  [
    BASE_SCHEDULE_FIELDS,
    USAGE_LIMITS_FIELDS,
    USAGE_FORECAST_FIELDS,
    USAGE_COUNTING_FIELDS,
    BASE_ALERTS_FIELDS,
    TABLE_COUNT_FIELDS,
    DAY_FIELDS,
    PAGE_INFO_FIELDS,
  ],
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
  const refetch = useRefetchShown();
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
  const countButton = useRef<HTMLButtonElement>(null);
  const countNow = async () => {
    if (running.loading) return;
    const result = await run({ variables: { id } }).catch(() => null);
    if (result?.data) await refetch();
  };
  const result = running.data?.runUsageCount.runResult;

  return (
    <Layout
      title={base?.baseName ?? 'Tracked base'}
      actions={
        base && (
          // Not disabled while it runs: a disabled button drops the keyboard focus to the page's body.
          <button type="button" ref={countButton} onClick={countNow} aria-disabled={running.loading}>
            {running.loading ? 'Counting…' : 'Count now'}
          </button>
        )
      }
    >
      <p class="back">
        <Link href="/">← All tracked bases</Link>
      </p>
      <ErrorMessage error={error} />
      {data && !base && <p class="empty">This base is not tracked (any more).</p>}
      {base && (
        <>
          <div aria-live="polite">
            {running.loading && <p>Counting every table of the base; large bases take a while.</p>}
            {result && (
              <p data-testid="run-result">
                Counted {plural(result.tablesProcessed, 'table')} for <Day value={result.snapshotDate} />.
              </p>
            )}
          </div>
          <ErrorMessage error={running.error} />
          <BaseSummary
            baseId={base.baseId}
            latest={base.latestSnapshot}
            limits={base.limits}
            forecast={base.forecast}
            schedule={base.schedule}
            scheduledHour={base.scheduledHour}
            timezone={base.timezone}
            configs={data?.monitoringConfigs.nodes ?? null}
          />
          <div class="base-layout">
            <div class="base-data">
              <h2 class="group">Usage</h2>
              {base.history.totalCount === 0 ? (
                <div class="panel">
                  <p class="empty">Not counted yet: press “Count now”, or wait for the daily count.</p>
                </div>
              ) : (
                <>
                  <div class="panel">
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
                      <UsageChart
                        days={days}
                        from={variables.from}
                        timezone={base.timezone}
                        limits={{ recordCount: base.limits.recordLimit, storageBytes: base.limits.storageLimitBytes }}
                      />
                    ) : (
                      <p class="empty">No count in these days: pick a longer range.</p>
                    )}
                  </div>
                  <div class="panel">
                    <ForecastSection forecasts={base.forecast} />
                  </div>
                  {base.latestSnapshot && (
                    <div class="panel">
                      <TableBreakdown date={base.latestSnapshot.date} tables={base.latestSnapshot.tables} />
                    </div>
                  )}
                  <div class="panel">
                    <TableScroll label="Counted days">
                      <table>
                        <caption>Counted days, newest first ({base.history.totalCount} in all)</caption>
                        <thead>
                          <tr>
                            <th scope="col">Day</th>
                            <th scope="col" class="num">
                              Records
                            </th>
                            <th scope="col" class="num">
                              Files
                            </th>
                            <th scope="col" class="num">
                              Attachment storage
                            </th>
                            <th scope="col" class="num">
                              Tables
                            </th>
                          </tr>
                        </thead>
                        <tbody>
                          {base.history.nodes.map((day) => (
                            <tr key={day.id}>
                              <td>{day.date}</td>
                              <td class="num">{formatCount(day.totals.recordCount)}</td>
                              <td class="num">{formatCount(day.totals.fileCount)}</td>
                              <td class="num">{formatBytes(day.totals.storageBytes)}</td>
                              <td class="num">{day.totals.tableCount}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </TableScroll>
                    <Pager label="Counted day pages" pageInfo={base.history.pageInfo} paging={paging} />
                  </div>
                </>
              )}
              <div class="panel">
                <AlertsSection alerts={base.alerts} />
              </div>
            </div>
            <aside class="base-settings" aria-labelledby="base-settings-heading">
              <h2 class="group" id="base-settings-heading">
                Settings
              </h2>
              <div class="panel">
                <LimitsSection id={base.id} limits={base.limits} />
              </div>
              <div class="panel">
                <ScheduleSection
                  id={base.id}
                  scheduledHour={base.scheduledHour}
                  timezone={base.timezone}
                  nextRunAt={base.schedule.nextRunAt}
                />
              </div>
              <div class="panel">
                <CountingSection id={base.id} counting={base.counting} />
              </div>
            </aside>
          </div>
        </>
      )}
    </Layout>
  );
}
