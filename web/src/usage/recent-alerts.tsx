import { Link } from '../router.js';
import { describeAlert, type UsageAlert } from './alerts.js';

/** The newest alerts of all tracked bases, each linking to its base's page; `names`: base names by upstream id. */
export function RecentAlerts({ alerts, names }: { alerts: { totalCount: number; nodes: UsageAlert[] }; names: Map<string, string> }) {
  return (
    <section class="panel" aria-labelledby="recent-alerts-heading">
      <h2 id="recent-alerts-heading">Newest alerts</h2>
      {alerts.totalCount === 0 ? (
        <p class="empty">No alert yet. Set a base’s limits on its page to be told when it nears them.</p>
      ) : (
        <ul class="alerts" data-testid="recent-alerts">
          {alerts.nodes.map((alert) => (
            <li key={alert.restId}>
              <Link href={`/bases/${encodeURIComponent(alert.usageBaseId)}`}>{names.get(alert.baseId) ?? alert.baseId}</Link>:{' '}
              {describeAlert(alert)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
