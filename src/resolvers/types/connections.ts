import { connectionType } from '../relay/connection.type.js';
import { SnapshotDayType } from './snapshot.type.js';
import { UsageBaseType } from './usage-base.type.js';

export const UsageBaseConnection = connectionType('UsageBase', UsageBaseType);
export type UsageBaseConnection = InstanceType<typeof UsageBaseConnection>;

export const SnapshotDayConnection = connectionType('SnapshotDay', SnapshotDayType);
export type SnapshotDayConnection = InstanceType<typeof SnapshotDayConnection>;
