import type { ComponentChildren } from 'preact';
import { Day, formatBytes, formatCount, formatPercent, Time } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';
import { Link } from '../router.js';
import type { UsageForecast } from './forecast.js';
import type { UsageLimits } from './limits.js';

/** What the band reads of the base's daily runs. */
export const BASE_SCHEDULE_FIELDS = graphql(`
  fragment BaseScheduleFields on UsageSchedule { nextRunAt lastRun { status startedAt finishedAt error } }
`);
type Schedule = ResultOf<typeof BASE_SCHEDULE_FIELDS>;

/** The monitoring configs of the account, for the audit log's state of this base. */
export interface AuditConfig {
  id: string;
  baseId: string;
  health: { state: string };
}

interface Props {
  baseId: string;
  latest: { date: string; totals: { recordCount: number; storageBytes: number } } | null;
  limits: UsageLimits;
  forecast: UsageForecast[];
  schedule: Schedule;
  scheduledHour: number;
  timezone: string;
  configs: AuditConfig[] | null;
}

/** The share of a limit, and how close it is: from the base's first alert threshold on it needs attention. */
export function limitShare(value: number | undefined, limit: number | null, thresholds: number[]) {
  if (value === undefined || limit === null || limit <= 0) return null;
  const percent = (value / limit) * 100;
  const near = Math.min(...thresholds, 80);
  return { percent, tone: percent >= 100 ? 'danger' : percent >= near ? 'warn' : 'ok' } as const;
}

function Stat({ label, testId, children }: { label: string; testId: string; children: ComponentChildren }) {
  return (
    <div class="stat" data-testid={testId}>
      <span class="label">{label}</span>
      {children}
    </div>
  );
}

function LimitStat({
  label,
  testId,
  value,
  limit,
  thresholds,
  format,
}: {
  label: string;
  testId: string;
  value: number | undefined;
  limit: number | null;
  thresholds: number[];
  format: (n: number) => string;
}) {
  const share = limitShare(value, limit, thresholds);
  return (
    <Stat label={label} testId={testId}>
      <span class="value">{value === undefined ? '—' : format(value)}</span>
      {share && limit !== null ? (
        <>
          <span class="sub">
            {formatPercent(share.percent)} of {format(limit)}
          </span>
          <span class={`meter ${share.tone}`} aria-hidden="true">
            <span style={{ width: `${Math.min(100, share.percent)}%` }} />
          </span>
        </>
      ) : (
        <span class="sub">No limit set</span>
      )}
    </Stat>
  );
}

/** The soonest day a limit is reached, or why there is none. */
function fullAround(forecasts: UsageForecast[]) {
  const reached = forecasts.find((f) => f.status === 'OK' && f.current !== null && f.limit !== null && f.current >= f.limit);
  if (reached) return { value: 'Limit reached', sub: reached.metric === 'RECORDS' ? 'records' : 'attachment storage' };
  const soonest = forecasts
    .filter((f): f is UsageForecast & { reachesOn: string } => f.status === 'OK' && f.reachesOn !== null)
    .sort((a, b) => a.reachesOn.localeCompare(b.reachesOn))[0];
  if (soonest) return { day: soonest.reachesOn, sub: soonest.metric === 'RECORDS' ? 'the record limit' : 'the storage limit' };
  const statuses = new Set(forecasts.map((f) => f.status));
  if (statuses.has('NOT_WITHIN_A_YEAR')) return { value: 'Not within a year', sub: 'at the recent pace' };
  if (statuses.has('NOT_ENOUGH_HISTORY')) return { value: 'Not yet known', sub: 'needs 7 counted days in 30' };
  return { value: 'No limit set', sub: 'set a plan or limits' };
}

/**
 * What a person comes to a base's page for, above everything else: records and storage with their share of the
 * limits, when the base is full, the last count and the next, and whether the audit log watches it.
 */
export function BaseSummary({ baseId, latest, limits, forecast, schedule, scheduledHour, timezone, configs }: Props) {
  const full = fullAround(forecast);
  const lastRun = schedule.lastRun;
  const watching = configs?.filter((c) => c.baseId === baseId) ?? [];
  const healthy = watching.filter((c) => c.health.state === 'OK');
  return (
    <section class="summary" aria-label="Summary" data-testid="summary">
      <LimitStat
        label="Records"
        testId="summary-records"
        value={latest?.totals.recordCount}
        limit={limits.recordLimit}
        thresholds={limits.thresholds}
        format={formatCount}
      />
      <LimitStat
        label="Attachment storage"
        testId="summary-storage"
        value={latest?.totals.storageBytes}
        limit={limits.storageLimitBytes}
        thresholds={limits.thresholds}
        format={formatBytes}
      />
      <Stat label="Full around" testId="summary-full">
        <span class="value">{'day' in full && full.day ? <Day value={full.day} /> : full.value}</span>
        <span class="sub">{full.sub}</span>
      </Stat>
      <Stat label="Last count" testId="summary-last-count">
        <span class="value">{latest ? <Day value={latest.date} /> : 'Not yet'}</span>
        <span class="sub">
          {lastRun?.status === 'FAILED' ? (
            <>
              <span class="badge danger">Failed</span> <Time value={lastRun.startedAt} />
              {lastRun.error && <> · {lastRun.error}</>}
            </>
          ) : lastRun?.status === 'RUNNING' ? (
            <span class="badge warn">Counting now</span>
          ) : lastRun?.finishedAt ? (
            <>
              Scheduled run <Time value={lastRun.finishedAt} />
            </>
          ) : (
            'no scheduled run yet'
          )}
        </span>
      </Stat>
      <Stat label="Next run" testId="summary-next-run">
        <span class="value instant">
          <Time value={schedule.nextRunAt} never="Not scheduled" />
        </span>
        <span class="sub">
          your time; daily at {String(scheduledHour).padStart(2, '0')}:00 {timezone}
        </span>
      </Stat>
      <Stat label="Audit log" testId="summary-audit">
        {configs === null ? (
          <span class="value">—</span>
        ) : watching.length === 0 ? (
          <>
            <span class="value">
              <span class="badge quiet">Off</span>
            </span>
            <span class="sub">
              <Link href="/audit-log">Monitor this base</Link>
            </span>
          </>
        ) : (
          <>
            <span class="value">
              <span class={`badge ${healthy.length === watching.length ? 'ok' : 'danger'}`}>
                {healthy.length === watching.length ? 'Logging' : 'Needs attention'}
              </span>
            </span>
            <span class="sub">
              <Link href={`/audit-log/${encodeURIComponent(watching[0].id)}`}>See its changes</Link>
            </span>
          </>
        )}
      </Stat>
    </section>
  );
}
