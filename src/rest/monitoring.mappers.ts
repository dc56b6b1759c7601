import type { MonitoringConfig } from '../entities/index.js';
import { healthOf } from '../services/audit/config-health.service.js';

/** The interface's exact shape: the status columns are served by GET …/status only. */
export const toMonitoringConfigResponse = (c: MonitoringConfig) => ({
  id: c.id,
  baseId: c.baseId,
  baseName: c.baseName,
  workspaceId: c.workspaceId,
  monitoringBaseId: c.monitoringBaseId,
  monitoringBaseName: c.monitoringBaseName,
  monitoringTableId: c.monitoringTableId,
  monitoringTableName: c.monitoringTableName,
  scope: c.scope,
  timezone: c.timezone,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

export const toMonitoringStatusResponse = (c: MonitoringConfig) => {
  const { state, lastError, checkedAt } = healthOf(c);
  return { state, lastError, checkedAt: checkedAt?.toISOString() ?? null };
};
