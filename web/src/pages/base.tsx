import { gql } from '@apollo/client';
import { useMutation, useQuery } from '@apollo/client/react';
import { useMemo } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { formatBytes, formatCount, Time } from '../format.js';
import { Layout } from '../layout.js';
import { Link } from '../router.js';
import { UsageChart, type ChartDay } from '../usage-chart.js';

interface Day {
  id: string;
  date: string;
  totals: { recordCount: number; storageBytes: number; fileCount: number; tableCount: number };
}

interface BaseData {
  usageBase: {
    id: string;
    baseName: string;
    timezone: string;
    scheduledHour: number;
    schedule: { nextRunAt: string | null };
    snapshots: { nodes: Day[] };
  } | null;
}

const CHART_DAYS = 90;
const BASE = gql`
  query UsageBasePage($id: ID!) {
    usageBase(id: $id) {
      id baseName timezone scheduledHour
      schedule { nextRunAt }
      snapshots(first: ${CHART_DAYS}) { nodes { id date totals { recordCount storageBytes fileCount tableCount } } }
    }
  }
`;
const RUN = gql`
  mutation RunUsageCount($id: ID!) {
    runUsageCount(input: { id: $id }) { runResult { status snapshotDate tablesProcessed } snapshot { id date totals { recordCount storageBytes } } }
  }
`;

/** One tracked base: "count now", the chart of its counted days, and their numbers. */
export function BasePage({ id }: { id: string }) {
  const { data, error, refetch } = useQuery<BaseData>(BASE, { variables: { id } });
  const [run, running] = useMutation<{ runUsageCount: { runResult: { status: string; snapshotDate: string; tablesProcessed: number } } }>(RUN);
  const base = data?.usageBase;
  const days = useMemo<ChartDay[]>(
    () => (base ? [...base.snapshots.nodes].reverse().map((d) => ({ date: d.date, recordCount: d.totals.recordCount, storageBytes: d.totals.storageBytes })) : []),
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
            Counted daily at {String(base.scheduledHour).padStart(2, '0')}:00 ({base.timezone}); next: <Time value={base.schedule.nextRunAt} />.
          </p>
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
          {days.length === 0 ? (
            <p class="empty">Not counted yet: press “Count now”, or wait for the daily count.</p>
          ) : (
            <>
              <UsageChart days={days} />
              <div class="table-scroll" tabIndex={0} role="region" aria-label="Counted days (scrolls sideways)">
                <table>
                  <caption>Counted days, newest first</caption>
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
                    {base.snapshots.nodes.map((day) => (
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
              </div>
            </>
          )}
        </>
      )}
    </Layout>
  );
}
