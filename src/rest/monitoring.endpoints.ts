import { MONITORING_SCOPES } from '../services/audit/change-event.js';
import { MONITORING_HEALTH_STATES } from '../services/audit/config-health.service.js';
import { monitoringConfigInput } from '../services/monitoring-config.input.js';
import { defineRoute } from './http/route.js';
import { lostIds, ServiceId, Timestamp } from './schemas.js';
import { z } from './zod.js';

const tag = 'Audit Log';

export const MonitoringConfigBody = z
  .strictObject({
    id: z.string().openapi({ format: 'uuid' }),
    baseId: z.string(),
    baseName: z.string(),
    workspaceId: z.string().openapi({ description: 'the upstream workspace, as given on create; "" when unknown' }),
    monitoringBaseId: z.string(),
    monitoringBaseName: z.string(),
    monitoringTableId: z.string(),
    monitoringTableName: z.string(),
    scope: z.enum(MONITORING_SCOPES),
    timezone: z.string(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi('MonitoringConfig');

export const MonitoringConfigStatusBody = z
  .strictObject({
    state: z.enum(MONITORING_HEALTH_STATES).openapi({
      description:
        'ok: nothing known to be wrong; monitored_base_missing: the logged base is gone upstream (or no longer shared with the token); changes_table_missing: the Changes table or the base holding it is gone, nothing is written; error: writing to the Changes table fails for another reason (see lastError)',
    }),
    lastError: z.string().nullable().openapi({ description: 'what was found, for any state but ok' }),
    checkedAt: Timestamp.nullable().openapi({ description: 'when the state was last established; null: not checked yet' }),
  })
  .openapi('MonitoringConfigStatus');

const ConfigResponse = z.strictObject({ config: MonitoringConfigBody });
const IdParams = z.object({ id: ServiceId });

export const monitoringRoutes = {
  list: defineRoute({
    method: 'get',
    path: '/monitoring-config',
    operationId: 'listMonitoringConfigs',
    summary: 'List monitoring configs (extension)',
    tag,
    success: {
      status: 200,
      description: 'The caller’s monitoring configs',
      schema: z.strictObject({ configs: z.array(MonitoringConfigBody), lost: lostIds('configs') }),
    },
    errors: [401, 429],
  }),
  create: defineRoute({
    method: 'post',
    path: '/monitoring-config',
    operationId: 'createMonitoringConfig',
    summary: 'Log a base’s changes into a Changes table (extension)',
    description:
      'Without `monitoringTableId` a Changes table (one column per field of a change entry) is created in the monitoring base; a given table gets the columns it lacks. The base is watched through one upstream webhook per base, shared by every account that watches it. 409 `conflict` for an identical config (the base into the same monitoring base with the same scope and no table, or into the same table: the message names the existing config), while an identical one is being created, and past the account’s quota (`MAX_MONITORING_CONFIGS_PER_ACCOUNT`, default 50), with nothing made upstream; 404 for a base the account’s connection does not see (whether it exists elsewhere or not), 400 for an unknown table.',
    tag,
    body: monitoringConfigInput.create,
    success: { status: 201, description: 'The new config', schema: ConfigResponse },
    errors: [400, 401, 404, 409, 413, 429, 502],
  }),
  get: defineRoute({
    method: 'get',
    path: '/monitoring-config/{id}',
    operationId: 'getMonitoringConfig',
    summary: 'One monitoring config (extension)',
    tag,
    params: IdParams,
    success: { status: 200, description: 'The config', schema: ConfigResponse },
    errors: [401, 404, 429],
  }),
  status: defineRoute({
    method: 'get',
    path: '/monitoring-config/{id}/status',
    operationId: 'getMonitoringConfigStatus',
    summary: 'Whether a config’s monitored base and Changes table are still there upstream (extension)',
    description:
      'Recorded when a write to the Changes table is refused (403/404: the table or a base is looked up) or works again, and by the upkeep, which runs once at start-up and then daily. Read from the database: no upstream call.',
    tag,
    params: IdParams,
    success: { status: 200, description: 'The config’s status', schema: z.strictObject({ status: MonitoringConfigStatusBody }) },
    errors: [401, 404, 429],
  }),
  update: defineRoute({
    method: 'patch',
    path: '/monitoring-config/{id}',
    operationId: 'updateMonitoringConfig',
    summary: 'Change monitoring scope',
    description: 'Both fields optional; an empty object changes nothing. The new scope applies to changes ingested from now on.',
    tag,
    params: IdParams,
    body: monitoringConfigInput.update,
    success: { status: 200, description: 'The updated config', schema: ConfigResponse },
    errors: [400, 401, 404, 413, 429],
  }),
  remove: defineRoute({
    method: 'delete',
    path: '/monitoring-config/{id}',
    operationId: 'deleteMonitoringConfig',
    summary: 'Stop logging (extension)',
    description:
      'Deletes the config and its logged entries (the Changes table is left as it is). The upstream webhook is deleted when nothing else watches the base.',
    tag,
    params: IdParams,
    success: { status: 204, description: 'Deleted' },
    errors: [401, 404, 429, 502],
  }),
  notification: defineRoute({
    method: 'post',
    path: '/upstream/notifications',
    operationId: 'receiveUpstreamNotification',
    summary: 'Upstream change ping (extension; called by the upstream platform)',
    description:
      'No API key: authenticated by `X-Airtable-Content-MAC` (`hmac-sha256=<hex>` of the raw body keyed by the webhook’s MAC secret). Answers 204 at once and queues reading the new payloads; a missing or wrong MAC is a 401 and nothing is queued.',
    tag,
    auth: false,
    rateLimited: false,
    success: { status: 204, description: 'Accepted' },
    errors: [401, 413],
  }),
};
