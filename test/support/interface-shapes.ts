/**
 * The fields of the interface's Monitoring config object, sorted: written out here rather than read from our own
 * schema, so that a change to the schema cannot change what the tests hold the service to.
 */
export const MONITORING_CONFIG_FIELDS = [
  'baseId',
  'baseName',
  'createdAt',
  'id',
  'monitoringBaseId',
  'monitoringBaseName',
  'monitoringTableId',
  'monitoringTableName',
  'scope',
  'timezone',
  'updatedAt',
  'workspaceId',
];
