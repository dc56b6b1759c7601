import { useMutation, useQuery } from '@apollo/client/react';
import { useMemo, useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { formatBytes, formatCount, Time } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { Layout } from '../layout.js';
import { PAGE_INFO_FIELDS, Pager, usePaging } from '../pager.js';
import { Link, navigate } from '../router.js';
import { USAGE_ALERT_FIELDS } from '../usage/alerts.js';
import { API_CALL_USAGE_FIELDS, ApiBudget } from '../usage/api-budget.js';
import { RecentAlerts } from '../usage/recent-alerts.js';
import { Sparkline } from '../usage/sparkline.js';
import { TableScroll } from '../table-scroll.js';

// airtableBases and apiCalls are null (with an error) when the upstream could not be read: the rest still shows.
const USAGE = graphql(
  `
    query Usage($first: Int, $after: String, $last: Int, $before: String) {
      usageBases(first: $first, after: $after, last: $last, before: $before) {
        totalCount
        pageInfo { ...PageInfoFields }
        nodes {
          id baseId baseName
          latestSnapshot { date totals { recordCount storageBytes tableCount } }
          trend: snapshots(first: 30) { nodes { date totals { recordCount } } }
        }
      }
      airtableBases { id restId name }
      recentAlerts: usageAlerts(first: 5) { totalCount nodes { ...UsageAlertFields } }
      apiCalls { ...ApiCallUsageFields }
    }
  `,
  [PAGE_INFO_FIELDS, USAGE_ALERT_FIELDS, API_CALL_USAGE_FIELDS],
);
const TRACK = graphql(`
  mutation TrackBase($baseId: ID!) { createUsageBase(input: { baseId: $baseId }) { usageBase { id } } }
`);

type AirtableBase = NonNullable<ResultOf<typeof USAGE>['airtableBases']>[number];

/**
 * The tracked bases with their latest totals, tracking another picked from the connected account's bases, this
 * month's upstream API calls and the newest alerts.
 */
export function UsagePage() {
  const paging = usePaging(20);
  const { data, error } = useQuery(USAGE, { variables: paging.variables, fetchPolicy: 'cache-and-network', errorPolicy: 'all' });
  const bases = data?.usageBases;
  // Base names by upstream id, for the API calls and alerts (which name only the id); a tracked base's own name wins.
  const names = useMemo(
    () =>
      new Map([
        ...(data?.airtableBases?.map((b) => [b.restId, b.name] as const) ?? []),
        ...(data?.usageBases.nodes.map((b) => [b.baseId, b.baseName] as const) ?? []),
      ]),
    [data],
  );
  return (
    <Layout title="Usage">
      <ErrorMessage error={error} />
      {data?.airtableBases && bases && (
        <TrackBase choices={data.airtableBases.filter((b) => !bases.nodes.some((tracked) => tracked.baseId === b.restId))} />
      )}
      {bases && bases.totalCount === 0 && (
        <p class="empty">No base is tracked yet. Pick one above to count its records and storage every day.</p>
      )}
      {bases && bases.nodes.length > 0 && (
        <TableScroll label="Tracked bases">
          <table>
            <caption>Tracked bases</caption>
            <thead>
              <tr>
                <th scope="col">Base</th>
                <th scope="col">Records</th>
                <th scope="col">Attachment storage</th>
                <th scope="col">Last counted</th>
                <th scope="col">Records, 30 days</th>
              </tr>
            </thead>
            <tbody>
              {bases.nodes.map((base) => (
                <tr key={base.id}>
                  <td>
                    <Link href={`/bases/${encodeURIComponent(base.id)}`}>{base.baseName}</Link>
                  </td>
                  <td>{base.latestSnapshot ? formatCount(base.latestSnapshot.totals.recordCount) : '—'}</td>
                  <td>{base.latestSnapshot ? formatBytes(base.latestSnapshot.totals.storageBytes) : '—'}</td>
                  <td>{base.latestSnapshot ? base.latestSnapshot.date : 'not yet'}</td>
                  <td>
                    <Sparkline
                      values={[...base.trend.nodes].reverse().map((day) => day.totals.recordCount)}
                      label={`Records of ${base.baseName} over the last ${base.trend.nodes.length} counted days`}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {bases && <Pager label="Tracked base pages" pageInfo={bases.pageInfo} paging={paging} />}
      {data && <RecentAlerts alerts={data.recentAlerts} names={names} />}
      {data?.apiCalls && <ApiBudget calls={data.apiCalls} names={names} />}
      <p class="hint">
        Times are shown in your zone; <Time value={new Date().toISOString()} /> is now.
      </p>
    </Layout>
  );
}

/** `choices`: the connected account's bases not on this page of tracked bases (the API refuses a second tracking). */
function TrackBase({ choices }: { choices: AirtableBase[] }) {
  const [track, tracking] = useMutation(TRACK);
  const [baseId, setBaseId] = useState('');
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const result = await track({ variables: { baseId } }).catch(() => null);
    const id = result?.data?.createUsageBase.usageBase.id;
    if (id) navigate(`/bases/${encodeURIComponent(id)}`);
  };
  return (
    <form onSubmit={onSubmit} class="inline">
      <div class="field">
        <label for="track-base">Track a base of your Airtable account</label>
        <select id="track-base" required value={baseId} onChange={(e) => setBaseId((e.currentTarget as HTMLSelectElement).value)}>
          <option value="">{choices.length ? 'Pick a base…' : 'Every base is tracked'}</option>
          {choices.map((base) => (
            <option key={base.restId} value={base.restId}>
              {base.name}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={tracking.loading || !baseId}>
        Track base
      </button>
      <ErrorMessage error={tracking.error} />
    </form>
  );
}
