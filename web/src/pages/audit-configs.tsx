import { useMutation, useQuery } from '../graphql-hooks.js';
import { useState } from 'preact/hooks';
import { BaseSelect, ErrorMessage, selectValue } from '../form.js';
import { graphql, type SchemaType } from '../graphql.js';
import { Layout } from '../layout.js';
import { PAGE_INFO_FIELDS, Pager, usePaging } from '../pager.js';
import { Link, navigate } from '../router.js';
import { ZONES } from '../usage/schedule.js';

/** airtableBases is null (with an error) when the upstream could not be read: the configs still show. */
const CONFIGS = graphql(
  `
    query MonitoringConfigs($first: Int, $after: String, $last: Int, $before: String) {
      monitoringConfigs(first: $first, after: $after, last: $last, before: $before) {
        totalCount
        pageInfo { ...PageInfoFields }
        nodes { id baseName monitoringBaseName monitoringTableName scope timezone upstreamAccess health { state lastError } }
      }
      airtableBases { id restId name }
    }
  `,
  [PAGE_INFO_FIELDS],
);
const CREATE = graphql(`
  mutation CreateMonitoringConfig($input: CreateMonitoringConfigInput!) { createMonitoringConfig(input: $input) { monitoringConfig { id } } }
`);

const SCOPE_NAMES: Record<SchemaType<'MonitoringScope'>, string> = {
  ALL: 'Records and schema',
  RECORDS_ONLY: 'Records only',
  SCHEMA_ONLY: 'Schema only',
};
const HEALTH_NAMES: Record<SchemaType<'MonitoringConfigState'>, string> = {
  OK: 'Logging',
  ERROR: 'Failing',
  CHANGES_TABLE_MISSING: 'Changes table missing',
  MONITORED_BASE_MISSING: 'Monitored base missing',
};

/** The monitoring configs (paged, with their health) and a new one picked from the upstream's bases. */
export function AuditConfigsPage() {
  const paging = usePaging(20);
  const { data, error } = useQuery(CONFIGS, { variables: paging.variables, fetchPolicy: 'cache-and-network', errorPolicy: 'all' });
  const [create, created] = useMutation(CREATE);
  const [baseId, setBaseId] = useState('');
  const [monitoringBaseId, setMonitoringBaseId] = useState('');
  const [scope, setScope] = useState<SchemaType<'MonitoringScope'>>('ALL');
  const [timezone, setTimezone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const configs = data?.monitoringConfigs;
  const submit = async (event: Event) => {
    event.preventDefault();
    const result = await create({ variables: { input: { baseId, monitoringBaseId, scope, timezone } } }).catch(() => null);
    const id = result?.data?.createMonitoringConfig.monitoringConfig.id;
    if (id) navigate(`/audit-log/${encodeURIComponent(id)}`);
  };
  const bases = data?.airtableBases ?? [];
  return (
    <Layout title="Audit log">
      <ErrorMessage error={error} />
      {configs && configs.totalCount === 0 && (
        <p class="empty">No base is monitored yet. Pick one below, and a base to keep its Changes table in.</p>
      )}
      {configs && configs.nodes.length > 0 && (
        <ul class="cards">
          {configs.nodes.map((config) => (
            <li key={config.id} class={config.upstreamAccess === 'LOST' ? 'card lost' : 'card'} data-testid="monitoring-config">
              <p>
                <Link href={`/audit-log/${encodeURIComponent(config.id)}`}>{config.baseName}</Link> → {config.monitoringBaseName} /{' '}
                {config.monitoringTableName}
              </p>
              <p class="hint">
                {SCOPE_NAMES[config.scope]} · days in {config.timezone}
              </p>
              <p>
                {config.upstreamAccess === 'LOST' ? (
                  <span class="badge warn">Not visible to your Airtable connection</span>
                ) : config.health.state === 'OK' ? (
                  <span class="badge ok">Logging</span>
                ) : (
                  <>
                    <span class="badge danger">{HEALTH_NAMES[config.health.state]}</span> {config.health.lastError}
                  </>
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
      {configs && <Pager label="Monitoring config pages" pageInfo={configs.pageInfo} paging={paging} />}
      <section aria-labelledby="new-config-heading">
        <h2 id="new-config-heading">Monitor a base</h2>
        <form onSubmit={submit} class="stacked">
          <BaseSelect id="config-base" label="Base to monitor" bases={bases} value={baseId} onPick={setBaseId} />
          <BaseSelect
            id="config-monitoring-base"
            label="Base for the Changes table"
            bases={bases}
            value={monitoringBaseId}
            onPick={setMonitoringBaseId}
          />
          <div class="field">
            <label for="config-scope">What to log</label>
            <select id="config-scope" value={scope} onChange={(e) => setScope(selectValue(e) as SchemaType<'MonitoringScope'>)}>
              <option value="ALL">Records and schema</option>
              <option value="RECORDS_ONLY">Records only</option>
              <option value="SCHEMA_ONLY">Schema only</option>
            </select>
          </div>
          <div class="field">
            <label for="config-zone">Time zone</label>
            <select id="config-zone" value={timezone} onChange={(e) => setTimezone(selectValue(e))}>
              {(ZONES.includes(timezone) ? ZONES : [timezone, ...ZONES]).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </div>
          <div>
            <button type="submit" disabled={created.loading}>
              {created.loading ? 'Creating the Changes table…' : 'Start monitoring'}
            </button>
          </div>
        </form>
        <ErrorMessage error={created.error} />
      </section>
    </Layout>
  );
}
