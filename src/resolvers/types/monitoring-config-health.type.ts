import { DateTimeResolver } from 'graphql-scalars';
import { Field, ObjectType } from 'type-graphql';
import type { MonitoringHealth, MonitoringHealthState } from '../../services/audit/config-health.service.js';
import { serviceEnum } from './graphql-enum.js';

export const MonitoringHealthStateEnum = serviceEnum<MonitoringHealthState>(
  'MonitoringConfigState',
  'Whether a monitoring config’s monitored base and Changes table are still there upstream. REST spells the values in lower case (`changes_table_missing`).',
  {
    ok: 'Nothing known to be wrong',
    monitored_base_missing: 'The logged base is gone upstream (or no longer shared with the connection): no more changes can be read',
    changes_table_missing: 'The Changes table, or the base holding it, is gone: nothing is written; changes keep being logged and wait',
    error: 'Writing to the Changes table fails for another reason (see lastError)',
  },
);

/** REST GET /monitoring-config/{id}/status. */
@ObjectType('MonitoringConfigHealth', {
  description: 'How the Changes-table writer and the daily upkeep last found the config upstream (REST GET /monitoring-config/{id}/status)',
})
export class MonitoringConfigHealthType {
  @Field(() => MonitoringHealthStateEnum, { description: 'What was found' })
  state: MonitoringHealthState;

  @Field(() => String, { nullable: true, description: 'What was found, in words, for any state but OK; null when OK' })
  lastError: string | null;

  @Field(() => DateTimeResolver, {
    nullable: true,
    description: 'When the state was last established (UTC); null: not checked since the config was made',
  })
  checkedAt: Date | null;
}

export const toMonitoringConfigHealthType = (health: MonitoringHealth): MonitoringConfigHealthType =>
  Object.assign(new MonitoringConfigHealthType(), health);
