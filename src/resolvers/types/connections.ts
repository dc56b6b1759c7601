import { connectionType } from '../relay/connection.type.js';
import { ChangeType } from './change.type.js';
import { DeletedRecordType, RecordVersionType } from './mirror.type.js';
import { MonitoringConfigType } from './monitoring-config.type.js';
import { SnapshotDayType } from './snapshot.type.js';
import { UsageBaseType } from './usage-base.type.js';
import { WebhookDeliveryType, WebhookType } from './webhook.type.js';

export const UsageBaseConnection = connectionType('UsageBase', UsageBaseType);
export type UsageBaseConnection = InstanceType<typeof UsageBaseConnection>;
export const UsageBaseEdge = UsageBaseConnection.Edge;
export type UsageBaseEdge = InstanceType<typeof UsageBaseEdge>;

export const SnapshotDayConnection = connectionType('SnapshotDay', SnapshotDayType);
export type SnapshotDayConnection = InstanceType<typeof SnapshotDayConnection>;

export const MonitoringConfigConnection = connectionType('MonitoringConfig', MonitoringConfigType);
export type MonitoringConfigConnection = InstanceType<typeof MonitoringConfigConnection>;
export const MonitoringConfigEdge = MonitoringConfigConnection.Edge;
export type MonitoringConfigEdge = InstanceType<typeof MonitoringConfigEdge>;

export const ChangeConnection = connectionType('Change', ChangeType);
export type ChangeConnection = InstanceType<typeof ChangeConnection>;

export const WebhookConnection = connectionType('Webhook', WebhookType);
export type WebhookConnection = InstanceType<typeof WebhookConnection>;
export const WebhookEdge = WebhookConnection.Edge;
export type WebhookEdge = InstanceType<typeof WebhookEdge>;

export const WebhookDeliveryConnection = connectionType('WebhookDelivery', WebhookDeliveryType);
export type WebhookDeliveryConnection = InstanceType<typeof WebhookDeliveryConnection>;

export const RecordVersionConnection = connectionType('RecordVersion', RecordVersionType);
export type RecordVersionConnection = InstanceType<typeof RecordVersionConnection>;

export const DeletedRecordConnection = connectionType('DeletedRecord', DeletedRecordType);
export type DeletedRecordConnection = InstanceType<typeof DeletedRecordConnection>;
