import { useMutation, useQuery } from '../graphql-hooks.js';
import { useMemo, useState } from 'preact/hooks';
import { ErrorMessage } from '../form.js';
import { Day, formatBytes, formatCount, formatPercent, Time } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { Layout } from '../layout.js';
import { PAGE_INFO_FIELDS, Pager, usePaging } from '../pager.js';
import { Link, navigate } from '../router.js';
import { USAGE_ALERT_FIELDS } from '../usage/alerts.js';
import { API_CALL_USAGE_FIELDS, ApiBudget } from '../usage/api-budget.js';
import { limitShare } from '../usage/base-summary.js';
import { RecentAlerts } from '../usage/recent-alerts.js';
import { HourField, VIEWER_ZONE, ZoneField } from '../usage/schedule.js';
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
          id baseId baseName upstreamAccess
          whenVisible {
            id
            latestSnapshot { date totals { recordCount storageBytes tableCount } }
            limits { recordLimit storageLimitBytes thresholds }
            forecast { metric status reachesOn current limit }
            schedule { lastRun { status error startedAt } }
            trend: snapshots(first: 30) { nodes { date totals { recordCount } } }
          }
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
  mutation TrackBase($baseId: ID!, $scheduledHour: Int, $timezone: TimeZone) {
    createUsageBase(input: { baseId: $baseId, scheduledHour: $scheduledHour, timezone: $timezone }) { usageBase { id } }
  }
`);

type AirtableBase = NonNullable<ResultOf<typeof USAGE>['airtableBases']>[number];
type TrackedBase = ResultOf<typeof USAGE>['usageBases']['nodes'][number];

/** Why a tracked base needs a look: near or past a limit, its last scheduled count failed, or the connection lost it. */
function attentionOf(base: TrackedBase): Array<{ tone: 'warn' | 'danger'; text: string }> {
  const seen = base.whenVisible;
  if (base.upstreamAccess === 'LOST' || !seen) return [{ tone: 'danger', text: 'Your Airtable connection cannot see this base' }];
  const reasons: Array<{ tone: 'warn' | 'danger'; text: string }> = [];
  const totals = seen.latestSnapshot?.totals;
  const limits: Array<[string, number | undefined, number | null]> = [
    ['Records', totals?.recordCount, seen.limits.recordLimit],
    ['Attachment storage', totals?.storageBytes, seen.limits.storageLimitBytes],
  ];
  for (const [what, value, limit] of limits) {
    const share = limitShare(value, limit, seen.limits.thresholds);
    if (share && share.tone !== 'ok') reasons.push({ tone: share.tone, text: `${what} at ${formatPercent(share.percent)} of the limit` });
  }
  const lastRun = seen.schedule.lastRun;
  if (lastRun?.status === 'FAILED')
    reasons.push({ tone: 'danger', text: `The last daily count failed${lastRun.error ? `: ${lastRun.error}` : ''}` });
  return reasons;
}

/** The key figures of the tracked bases on this page: how many, their records and storage, and how many need a look. */
function OverviewBand({ bases }: { bases: TrackedBase[] }) {
  const latest = bases.map((b) => b.whenVisible?.latestSnapshot?.totals);
  const records = latest.reduce((sum, t) => sum + (t?.recordCount ?? 0), 0);
  const storage = latest.reduce((sum, t) => sum + (t?.storageBytes ?? 0), 0);
  const attention = bases.filter((b) => attentionOf(b).length > 0).length;
  return (
    <section class="summary" aria-label="Key figures" data-testid="overview">
      <div class="stat">
        <span class="label">Tracked bases</span>
        <span class="value">{formatCount(bases.length)}</span>
      </div>
      <div class="stat">
        <span class="label">Records</span>
        <span class="value">{formatCount(records)}</span>
        <span class="sub">latest counts, all bases</span>
      </div>
      <div class="stat">
        <span class="label">Attachment storage</span>
        <span class="value">{formatBytes(storage)}</span>
        <span class="sub">latest counts, all bases</span>
      </div>
      <div class="stat">
        <span class="label">Need attention</span>
        <span class="value">{formatCount(attention)}</span>
        <span class="sub">{attention ? 'see below' : 'all well'}</span>
      </div>
    </section>
  );
}

/** The bases that need a look, each with its reasons. */
function NeedsAttention({ bases }: { bases: TrackedBase[] }) {
  const flagged = bases.map((base) => ({ base, reasons: attentionOf(base) })).filter(({ reasons }) => reasons.length > 0);
  if (flagged.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="attention-heading">
      <h2 id="attention-heading">Needs attention</h2>
      <ul class="attention" data-testid="needs-attention">
        {flagged.map(({ base, reasons }) => (
          <li key={base.id}>
            <Link href={`/bases/${encodeURIComponent(base.id)}`}>{base.baseName}</Link>
            {reasons.map((reason) => (
              <span key={reason.text} class={`badge ${reason.tone}`}>
                {reason.text}
              </span>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A share of a limit under a figure, or nothing without a limit. */
function ShareOf({
  value,
  limit,
  thresholds,
  format,
}: {
  value: number;
  limit: number | null;
  thresholds: number[];
  format: (n: number) => string;
}) {
  const share = limitShare(value, limit, thresholds);
  if (!share || limit === null) return null;
  return (
    <span class={`hint share ${share.tone}`}>
      {' '}
      {formatPercent(share.percent)} of {format(limit)}
    </span>
  );
}

function BaseRow({ base }: { base: TrackedBase }) {
  const seen = base.whenVisible;
  const latest = seen?.latestSnapshot;
  const reasons = attentionOf(base);
  const soonest = seen?.forecast
    .filter((f) => f.status === 'OK' && f.reachesOn)
    .map((f) => f.reachesOn!)
    .sort()[0];
  return (
    <tr>
      <td>
        <Link href={`/bases/${encodeURIComponent(base.id)}`}>{base.baseName}</Link>
      </td>
      <td class="num">
        {latest ? formatCount(latest.totals.recordCount) : '—'}
        {latest && seen && (
          <ShareOf
            value={latest.totals.recordCount}
            limit={seen.limits.recordLimit}
            thresholds={seen.limits.thresholds}
            format={formatCount}
          />
        )}
      </td>
      <td class="num">
        {latest ? formatBytes(latest.totals.storageBytes) : '—'}
        {latest && seen && (
          <ShareOf
            value={latest.totals.storageBytes}
            limit={seen.limits.storageLimitBytes}
            thresholds={seen.limits.thresholds}
            format={formatBytes}
          />
        )}
      </td>
      <td>{soonest ? <Day value={soonest} /> : '—'}</td>
      <td>{latest ? <Day value={latest.date} /> : 'not yet'}</td>
      <td>
        {reasons.length === 0 ? (
          <span class="badge ok">OK</span>
        ) : (
          <span class={`badge ${reasons.some((r) => r.tone === 'danger') ? 'danger' : 'warn'}`}>
            {base.upstreamAccess === 'LOST' ? 'Not visible' : 'Needs attention'}
          </span>
        )}
      </td>
      <td>
        {seen ? (
          <Sparkline
            values={[...seen.trend.nodes].reverse().map((day) => day.totals.recordCount)}
            label={`Records of ${base.baseName} over the last ${seen.trend.nodes.length} counted days`}
          />
        ) : (
          '—'
        )}
      </td>
    </tr>
  );
}

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
      {bases && bases.totalCount === 0 && (
        <p class="empty">No base is tracked yet. Pick one below to count its records and storage every day.</p>
      )}
      {bases && bases.nodes.length > 0 && <OverviewBand bases={bases.nodes} />}
      {bases && <NeedsAttention bases={bases.nodes} />}
      {bases && bases.nodes.length > 0 && (
        <div class="panel">
          <TableScroll label="Tracked bases">
            <table>
              <caption>Tracked bases</caption>
              <thead>
                <tr>
                  <th scope="col">Base</th>
                  <th scope="col" class="num">
                    Records
                  </th>
                  <th scope="col" class="num">
                    Attachment storage
                  </th>
                  <th scope="col">Full around</th>
                  <th scope="col">Last counted</th>
                  <th scope="col">Status</th>
                  <th scope="col">Records, 30 days</th>
                </tr>
              </thead>
              <tbody>
                {bases.nodes.map((base) => (
                  <BaseRow key={base.id} base={base} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        </div>
      )}
      {bases && <Pager label="Tracked base pages" pageInfo={bases.pageInfo} paging={paging} />}
      {data?.airtableBases && bases && (
        <div class="panel">
          <TrackBase choices={data.airtableBases.filter((b) => !bases.nodes.some((tracked) => tracked.baseId === b.restId))} />
        </div>
      )}
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
  // Counted daily at this hour of this zone (the viewer's by default), the days of its history too.
  const [hour, setHour] = useState(0);
  const [zone, setZone] = useState(VIEWER_ZONE);
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const result = await track({ variables: { baseId, scheduledHour: hour, timezone: zone } }).catch(() => null);
    const id = result?.data?.createUsageBase.usageBase.id;
    if (id) navigate(`/bases/${encodeURIComponent(id)}`);
  };
  return (
    <form onSubmit={onSubmit} class="track">
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
      <HourField id="track-hour" label="Count daily at" value={hour} onPick={setHour} />
      <ZoneField id="track-zone" label="Time zone of its days" value={zone} onPick={setZone} />
      <button type="submit" disabled={tracking.loading || !baseId}>
        Track base
      </button>
      <ErrorMessage error={tracking.error} />
    </form>
  );
}
