import type { BuildSchemaOptions } from 'type-graphql';
import { AccountMutations } from './account.mutations.js';
import { AirtableResolver } from './airtable.resolver.js';
import { ApiCallsResolver } from './api-calls.resolver.js';
import { ApiKeyResolver } from './api-key.resolver.js';
import { ChangeResolver } from './change.resolver.js';
import { DeliverySubscriptionResolver } from './delivery-subscription.resolver.js';
import { ConnectionResolver } from './connection.resolver.js';
import { MonitoringConfigMirrorResolver } from './mirror.resolver.js';
import { MonitoringConfigMutations } from './monitoring-config.mutations.js';
import { MonitoringConfigResolver } from './monitoring-config.resolver.js';
import { NodeResolver } from './node.resolver.js';
import { RestoreMutations } from './restore.mutations.js';
import { SnapshotDayResolver } from './snapshot.resolver.js';
import { UsageAlertResolver } from './usage-alert.resolver.js';
import { UsageBaseMutations } from './usage-base.mutations.js';
import { UsageBaseResolver, UsageForecastResolver } from './usage-base.resolver.js';
import { MonitoringConfigNamesResolver, WebhookNamesResolver } from './upstream-names.resolver.js';
import {
  MonitoringConfigAccessResolver,
  UsageBaseAccessResolver,
  UsageBaseWhenVisibleResolver,
  WebhookAccessResolver,
} from './upstream-access.resolver.js';
import { ViewerResolver } from './viewer.resolver.js';
import { WebhookMutations } from './webhook.mutations.js';
import { WebhookResolver } from './webhook.resolver.js';

/** Every resolver class of the schema; new areas add theirs here. */
export const resolvers: BuildSchemaOptions['resolvers'] = [
  NodeResolver,
  ViewerResolver,
  ConnectionResolver,
  AccountMutations,
  ApiKeyResolver,
  UsageBaseResolver,
  UsageForecastResolver,
  UsageBaseMutations,
  ApiCallsResolver,
  SnapshotDayResolver,
  UsageAlertResolver,
  AirtableResolver,
  MonitoringConfigResolver,
  MonitoringConfigMutations,
  MonitoringConfigMirrorResolver,
  RestoreMutations,
  ChangeResolver,
  WebhookResolver,
  WebhookMutations,
  DeliverySubscriptionResolver,
  UsageBaseAccessResolver,
  MonitoringConfigAccessResolver,
  WebhookAccessResolver,
  UsageBaseWhenVisibleResolver,
  MonitoringConfigNamesResolver,
  WebhookNamesResolver,
];
