import { DateTimeResolver } from 'graphql-scalars';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import {
  MONITORING_HEALTH_STATES,
  type MonitoringHealth,
  type MonitoringHealthState,
} from '../../services/audit/config-health.service.js';

export const MonitoringHealthStateEnum = Object.fromEntries(MONITORING_HEALTH_STATES.map((v) => [v, v])) as {
  [K in MonitoringHealthState]: K;
};
registerEnumType(MonitoringHealthStateEnum, {
  name: 'MonitoringConfigState',
  description: 'Whether a monitoring config’s monitored base and Changes table are still there upstream',
  valuesConfig: {
    ok: { description: 'Nothing known to be wrong' },
    monitored_base_missing: { description: 'The logged base is gone upstream (or no longer shared with the token)' },
    changes_table_missing: { description: 'The Changes table, or the base holding it, is gone: nothing is written' },
    error: { description: 'Writing to the Changes table fails for another reason (see lastError)' },
  },
});

/** REST GET /monitoring-config/{id}/status. */
@ObjectType('MonitoringConfigHealth', { description: 'As the Changes-table writer and the upkeep last found the config upstream' })
export class MonitoringConfigHealthType {
  @Field(() => MonitoringHealthStateEnum)
  state: MonitoringHealthState;

  @Field(() => String, { nullable: true, description: 'What was found, for any state but ok' })
  lastError: string | null;

  @Field(() => DateTimeResolver, { nullable: true, description: 'When the state was last established; null: not checked yet' })
  checkedAt: Date | null;
}

export const toMonitoringConfigHealthType = (health: MonitoringHealth): MonitoringConfigHealthType =>
  Object.assign(new MonitoringConfigHealthType(), health);
