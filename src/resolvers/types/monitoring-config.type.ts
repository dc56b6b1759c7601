import { DateTimeResolver, TimeZoneResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { MonitoringConfig } from '../../entities/index.js';
import type { MonitoringScope } from '../../services/audit/change-event.js';
import { healthOf } from '../../services/audit/config-health.service.js';
import { toGlobalId } from '../relay/global-id.js';
import { MonitoringScopeEnum } from './change-enums.js';
import { MonitoringConfigHealthType, toMonitoringConfigHealthType } from './monitoring-config-health.type.js';
import { Node } from './node.type.js';

/** A monitoring config (REST `Monitoring config`); its changes are resolved by MonitoringConfigResolver. */
@ObjectType('MonitoringConfig', { implements: Node, description: 'A base whose changes are logged into a Changes table' })
export class MonitoringConfigType extends Node {
  @Field(() => String, { description: 'The id of REST paths /monitoring-config/{id} (a UUID)' })
  restId: string;

  @Field(() => String, { description: 'The monitored upstream base' })
  baseId: string;

  @Field(() => String)
  baseName: string;

  @Field(() => String, { description: 'The upstream workspace, as given on create; "" when unknown' })
  workspaceId: string;

  @Field(() => String, { description: 'The upstream base holding the Changes table' })
  monitoringBaseId: string;

  @Field(() => String)
  monitoringBaseName: string;

  @Field(() => String, { description: 'The Changes table' })
  monitoringTableId: string;

  @Field(() => String)
  monitoringTableName: string;

  @Field(() => MonitoringScopeEnum)
  scope: MonitoringScope;

  @Field(() => TimeZoneResolver)
  timezone: string;

  @Field(() => DateTimeResolver)
  createdAt: Date;

  @Field(() => DateTimeResolver)
  updatedAt: Date;

  @Field(() => MonitoringConfigHealthType, {
    description: 'Whether the monitored base and the Changes table are still there upstream (REST GET /monitoring-config/{id}/status)',
  })
  health: MonitoringConfigHealthType;
}

export const toMonitoringConfigType = (config: MonitoringConfig): MonitoringConfigType =>
  Object.assign(new MonitoringConfigType(), {
    id: toGlobalId('MonitoringConfig', config.id),
    restId: config.id,
    baseId: config.baseId,
    baseName: config.baseName,
    workspaceId: config.workspaceId,
    monitoringBaseId: config.monitoringBaseId,
    monitoringBaseName: config.monitoringBaseName,
    monitoringTableId: config.monitoringTableId,
    monitoringTableName: config.monitoringTableName,
    scope: config.scope as MonitoringScope,
    timezone: config.timezone,
    createdAt: config.createdAt,
    updatedAt: config.updatedAt,
    health: toMonitoringConfigHealthType(healthOf(config)),
  });
