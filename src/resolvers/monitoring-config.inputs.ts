import { TimeZoneResolver } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType } from 'type-graphql';
import type { MonitoringScope } from '../services/audit/change-event.js';
import { MonitoringScopeEnum } from './types/change-enums.js';
import { MonitoringConfigType } from './types/monitoring-config.type.js';

// Relay mutations: one `input` argument, a payload echoing clientMutationId. Values are checked by the REST schemas.

@InputType('CreateMonitoringConfigInput')
export class CreateMonitoringConfigInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => String, { description: 'The upstream base to log (app…)' })
  baseId: string;

  @Field(() => String, { description: 'The upstream base that holds the Changes table (app…)' })
  monitoringBaseId: string;

  @Field(() => String, { nullable: true, description: 'An existing table (tbl…) to log into; default: a new Changes table' })
  monitoringTableId?: string | null;

  @Field(() => MonitoringScopeEnum, { nullable: true, description: 'Default: all' })
  scope?: MonitoringScope | null;

  @Field(() => TimeZoneResolver, { nullable: true, description: 'IANA zone or UTC; default UTC' })
  timezone?: string | null;

  @Field(() => String, { nullable: true, description: 'The upstream workspace (wsp…), which the upstream API does not tell' })
  workspaceId?: string | null;
}

@InputType('UpdateMonitoringConfigInput')
export class UpdateMonitoringConfigInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the monitoring config' })
  id: string;

  @Field(() => MonitoringScopeEnum, { nullable: true, description: 'Applies to changes ingested from now on' })
  scope?: MonitoringScope | null;

  @Field(() => TimeZoneResolver, { nullable: true })
  timezone?: string | null;
}

@InputType('DeleteMonitoringConfigInput')
export class DeleteMonitoringConfigInput {
  @Field(() => String, { nullable: true })
  clientMutationId?: string | null;

  @Field(() => ID, { description: 'Global id or REST id of the monitoring config' })
  id: string;
}

@ObjectType('CreateMonitoringConfigPayload')
export class CreateMonitoringConfigPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => MonitoringConfigType)
  monitoringConfig: MonitoringConfigType;
}

@ObjectType('UpdateMonitoringConfigPayload')
export class UpdateMonitoringConfigPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => MonitoringConfigType)
  monitoringConfig: MonitoringConfigType;
}

@ObjectType('DeleteMonitoringConfigPayload')
export class DeleteMonitoringConfigPayload {
  @Field(() => String, { nullable: true })
  clientMutationId: string | null;

  @Field(() => ID, { description: 'Global id of the deleted monitoring config' })
  deletedMonitoringConfigId: string;
}
