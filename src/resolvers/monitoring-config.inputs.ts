import { TimeZoneResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import type { MonitoringScope } from '../services/audit/change-event.js';
import { MonitoringScopeEnum } from './types/change-enums.js';
import { MonitoringConfigEdge } from './types/connections.js';
import { MonitoringConfigType } from './types/monitoring-config.type.js';

// Relay mutations: one `input` argument, a payload echoing clientMutationId. Values are checked by the REST schemas.

@InputType('CreateMonitoringConfigInput', {
  description: 'A base to log and the Changes table to log it into (REST POST /monitoring-config body)',
})
export class CreateMonitoringConfigInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'The upstream base to log (app…); one the connection cannot see is not_found' })
  baseId: string;

  @Field(() => ID, { description: 'The upstream base that holds the Changes table (app…)' })
  monitoringBaseId: string;

  @Field(() => String, {
    nullable: true,
    description: 'An existing table (tbl…) of the monitoring base to log into (it gets the columns it lacks); default: a new Changes table',
  })
  monitoringTableId?: string | null;

  @Field(() => MonitoringScopeEnum, { nullable: true, description: 'Which changes to log; default ALL' })
  scope?: MonitoringScope | null;

  @Field(() => TimeZoneResolver, { nullable: true, description: 'The config’s time zone (IANA id or UTC); default UTC' })
  timezone?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The upstream workspace (wsp…), kept as given (the upstream API does not tell it); default ""',
  })
  workspaceId?: string | null;
}

@InputType('UpdateMonitoringConfigInput', {
  description: 'What to change in a monitoring config (REST PATCH /monitoring-config/{id}); fields left out or null stay as they are',
})
export class UpdateMonitoringConfigInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the monitoring config' })
  id: string;

  @Field(() => MonitoringScopeEnum, { nullable: true, description: 'New scope; applies to changes ingested from now on' })
  scope?: MonitoringScope | null;

  @Field(() => TimeZoneResolver, { nullable: true, description: 'New time zone (IANA id or UTC)' })
  timezone?: string | null;
}

@InputType('DeleteMonitoringConfigInput', { description: 'The monitoring config to delete' })
export class DeleteMonitoringConfigInput {
  @Field(() => String, { nullable: true, description: 'Any string of yours; the payload echoes it, to match answers to requests (Relay)' })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the monitoring config' })
  id: string;
}

@ObjectType('CreateMonitoringConfigPayload', { description: 'What createMonitoringConfig made' })
export class CreateMonitoringConfigPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => MonitoringConfigType, { description: 'The new config (with its new Changes table when none was given)' })
  monitoringConfig: MonitoringConfigType;

  @Field(() => MonitoringConfigEdge, { description: 'The new config as an edge of `monitoringConfigs`, for Relay’s @appendEdge' })
  monitoringConfigEdge: MonitoringConfigEdge;
}

@ObjectType('UpdateMonitoringConfigPayload', { description: 'What updateMonitoringConfig changed' })
export class UpdateMonitoringConfigPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => MonitoringConfigType, { description: 'The config as updated' })
  monitoringConfig: MonitoringConfigType;
}

@ObjectType('DeleteMonitoringConfigPayload', {
  description: 'What deleteMonitoringConfig removed: the config and its logged changes (the Changes table stays)',
})
export class DeleteMonitoringConfigPayload {
  @Field(() => String, { nullable: true, description: 'The input’s clientMutationId; null when none was sent' })
  clientMutationId: string | null;

  @Field(() => ID, {
    description: 'Global id of the deleted monitoring config',
    deprecationReason: 'Use deletedId, which every delete payload has',
  })
  deletedMonitoringConfigId: string;

  @Field(() => ID, { description: 'Global id of the deleted monitoring config, for Relay’s @deleteRecord' })
  deletedId: string;
}
