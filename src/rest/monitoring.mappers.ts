import type { MonitoringConfig } from '../entities/index.js';

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
