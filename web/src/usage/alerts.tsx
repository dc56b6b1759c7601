import { formatBytes, formatCount } from '../format.js';
import { graphql, type ResultOf } from '../graphql.js';

export const USAGE_ALERT_FIELDS = graphql(`
  fragment UsageAlertFields on UsageAlert { id restId usageBaseId baseId metric threshold value limit percent date createdAt }
`);
export type UsageAlert = ResultOf<typeof USAGE_ALERT_FIELDS>;

/** The base page's selection: its 10 newest alerts, in the page's one query. */
export const BASE_ALERTS_FIELDS = graphql(
  `
    fragment BaseAlertsFields on UsageBase { alerts(first: 10) { totalCount nodes { ...UsageAlertFields } } }
  `,
  [USAGE_ALERT_FIELDS],
);
export type BaseAlerts = ResultOf<typeof BASE_ALERTS_FIELDS>['alerts'];

/** "Records reached 80 % of the limit: 812 of 1,000 (81.2 %) on 2026-03-14" */
export function describeAlert(alert: UsageAlert): string {
  const format = alert.metric === 'RECORDS' ? formatCount : formatBytes;
  const what = alert.metric === 'RECORDS' ? 'Records' : 'Attachment storage';
  return `${what} reached ${alert.threshold} % of the limit: ${format(alert.value)} of ${format(alert.limit)} (${alert.percent} %) on ${alert.date}`;
}

/** The newest threshold alerts of one base. */
export function AlertsSection({ alerts }: { alerts: BaseAlerts }) {
  return (
    <section aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">Alerts</h2>
      {alerts.totalCount === 0 && <p class="empty">No alert yet: a count that reaches a threshold of a limit records one.</p>}
      {alerts.nodes.length > 0 && (
        <>
          <ul class="alerts" data-testid="base-alerts">
            {alerts.nodes.map((alert) => (
              <li key={alert.restId}>{describeAlert(alert)}</li>
            ))}
          </ul>
          {alerts.totalCount > alerts.nodes.length && (
            <p class="hint">
              The newest {alerts.nodes.length} of {alerts.totalCount}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
