import { registerEnumType } from 'type-graphql';
import {
  CHANGE_EVENT_TYPES,
  CHANGE_KINDS,
  CHANGE_SOURCES,
  MONITORING_SCOPES,
  type ChangeEventType,
  type ChangeKind,
  type ChangeSource,
  type MonitoringScope,
} from '../../services/audit/change-event.js';

/** A GraphQL enum whose values are the service's own strings (`record_update`, `publicApi`…), as in REST. */
export const enumOf = <T extends string>(values: readonly T[]) => Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const ChangeEventTypeEnum = enumOf<ChangeEventType>(CHANGE_EVENT_TYPES);
registerEnumType(ChangeEventTypeEnum, { name: 'ChangeEventType', description: 'The nine change event types' });

export const ChangeKindEnum = enumOf<ChangeKind>(CHANGE_KINDS);
registerEnumType(ChangeKindEnum, { name: 'ChangeKind', description: 'record: a record’s cells; schema: a table or field' });

export const ChangeSourceEnum = enumOf<ChangeSource>(CHANGE_SOURCES);
registerEnumType(ChangeSourceEnum, { name: 'ChangeSource', description: 'Where an upstream change came from; unknown for a source the upstream did not name' });

export const MonitoringScopeEnum = enumOf<MonitoringScope>(MONITORING_SCOPES);
registerEnumType(MonitoringScopeEnum, { name: 'MonitoringScope', description: 'What a monitoring config logs' });
