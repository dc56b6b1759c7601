import { DateTimeResolver, TimeZoneResolver } from 'graphql-scalars';
import { Field, ID, ObjectType } from 'type-graphql';
import type { MonitoringConfig } from '../../entities/index.js';
import type { MonitoringScope } from '../../services/audit/change-event.js';
import { healthOf } from '../../services/audit/config-health.service.js';
import { toGlobalId } from '../relay/global-id.js';
import { MonitoringScopeEnum } from './change-enums.js';
import { MonitoringConfigHealthType, toMonitoringConfigHealthType } from './monitoring-config-health.type.js';
import { Node } from './node.type.js';

/** A monitoring config (REST `Monitoring config`); its changes are resolved by MonitoringConfigResolver. */
@ObjectType('MonitoringConfig', {
  implements: Node,
  description: 'Logs the changes of one upstream base into a Changes table of a monitoring base (REST `Monitoring config`)',
})
export class MonitoringConfigType extends Node {
  @Field(() => String, { description: 'The id of REST paths /monitoring-config/{id} (a UUID)' })
  restId: string;

  @Field(() => ID, { description: 'The monitored upstream base (app…)' })
  baseId: string;

  @Field(() => String, { description: 'The monitored base’s name upstream, as read when the config was made' })
  baseName: string;

  @Field(() => String, {
    description: 'The upstream workspace (wsp…) as given on create; "" when not given (the upstream API does not tell it)',
  })
  workspaceId: string;

  @Field(() => ID, { description: 'The upstream base (app…) holding the Changes table' })
  monitoringBaseId: string;

  @Field(() => String, { description: 'That base’s name upstream, as read when the config was made' })
  monitoringBaseName: string;

  @Field(() => String, { description: 'The Changes table (tbl…) the log is written into' })
  monitoringTableId: string;

  @Field(() => String, { description: 'The Changes table’s name, as read or created when the config was made' })
  monitoringTableName: string;

  @Field(() => MonitoringScopeEnum, { description: 'Which changes are logged; a change of scope applies to changes ingested from then on' })
  scope: MonitoringScope;

  @Field(() => TimeZoneResolver, {
    description:
      'The config’s time zone (IANA id or UTC; default UTC), kept as set: ChangeFilter’s `from` and `to` are read in the filter’s own `timezone`',
  })
  timezone: string;

  @Field(() => DateTimeResolver, { description: 'When the config was made (UTC)' })
  createdAt: Date;

  @Field(() => DateTimeResolver, { description: 'When the config last changed (UTC)' })
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
