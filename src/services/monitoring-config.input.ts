import { z } from 'zod';
import { MONITORING_SCOPES } from './audit/change-event.js';
import { TimeZone, UpstreamBaseId } from './input-fields.js';

const Scope = z.enum(MONITORING_SCOPES).meta({ description: 'what is logged: all changes, records only, schema only' });
const UpstreamTableId = z.string().regex(/^tbl[A-Za-z0-9]{14}$/, 'must be an upstream table id (tbl followed by 14 letters or digits)');
const WorkspaceId = z.string().regex(/^wsp[A-Za-z0-9]{14}$/, 'must be an upstream workspace id (wsp followed by 14 letters or digits)');

/** What creating a monitoring config (`MonitoringConfigService.create`) and changing it (`update`) accept. */
export const monitoringConfigInput = {
  create: z.strictObject({
    baseId: UpstreamBaseId,
    monitoringBaseId: UpstreamBaseId,
    monitoringTableId: UpstreamTableId.optional(),
    scope: Scope.optional().meta({ default: 'all' }),
    timezone: TimeZone.optional().meta({ default: 'UTC' }),
    workspaceId: WorkspaceId.optional().meta({
      description: 'the upstream workspace (the upstream API does not tell it); default ""',
    }),
  }),
  update: z.strictObject({ scope: Scope.optional(), timezone: TimeZone.optional() }),
};
