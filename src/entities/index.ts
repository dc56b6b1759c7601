import { Account } from './account.entity.js';
import { ApiKey } from './api-key.entity.js';
import { ChangeEntry } from './change-entry.entity.js';
import { ChangeEntryField } from './change-entry-field.entity.js';
import { ChangeOutbox } from './change-outbox.entity.js';
import { DeploymentKey } from './deployment-key.entity.js';
import { MonitoringConfig } from './monitoring-config.entity.js';
import { MonitoringConfigClaim } from './monitoring-config-claim.entity.js';
import { OAuthState } from './oauth-state.entity.js';
import { SetPasswordToken } from './set-password-token.entity.js';
import { UpstreamApiCall } from './upstream-api-call.entity.js';
import { UpstreamConnection } from './upstream-connection.entity.js';
import { User } from './user.entity.js';
import { UserSession } from './user-session.entity.js';
import { UsageBase } from './usage-base.entity.js';
import { UsageAlert } from './usage-alert.entity.js';
import { UsageBaseLimits } from './usage-base-limits.entity.js';
import { UsageRun } from './usage-run.entity.js';
import { UsageSnapshot } from './usage-snapshot.entity.js';
import { UpstreamWatch } from './upstream-watch.entity.js';
import { Webhook } from './webhook.entity.js';
import { MirrorBase } from './mirror-base.entity.js';
import { MirrorRecord } from './mirror-record.entity.js';
import { MirrorRestore } from './mirror-restore.entity.js';
import { MirrorPending, MirrorSeedRecord } from './mirror-staging.entity.js';
import { MirrorVersion } from './mirror-version.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhookDeliveryAttempt } from './webhook-delivery-attempt.entity.js';

export {
  Account,
  ApiKey,
  ChangeEntry,
  ChangeEntryField,
  ChangeOutbox,
  MonitoringConfig,
  UpstreamWatch,
  UsageBase,
  UsageRun,
  UsageSnapshot,
};
export { OAuthState, UpstreamApiCall, UpstreamConnection, Webhook, WebhookDelivery, WebhookDeliveryAttempt };
export { SetPasswordToken, UsageAlert, UsageBaseLimits, User, UserSession };
export { DeploymentKey, MonitoringConfigClaim };
export { MirrorBase, MirrorPending, MirrorRecord, MirrorRestore, MirrorSeedRecord, MirrorVersion };
export type { MirrorStatus } from './mirror-base.entity.js';
export type { RestoreStatus } from './mirror-restore.entity.js';
export type { UsageMetric } from './usage-alert.entity.js';
export type { UpstreamConnectionKind, UpstreamConnectionStatus } from './upstream-connection.entity.js';
export type { WebhookDeactivationReason } from './webhook.entity.js';
export type { WebhookDeliveryStatus } from './webhook-delivery.entity.js';
export type { UpstreamWatchStatus } from './upstream-watch.entity.js';
export type { UsageRunStatus } from './usage-run.entity.js';
export type { TableCount } from './usage-snapshot.entity.js';

export const entities = [
  MirrorBase,
  MirrorPending,
  MirrorRecord,
  MirrorRestore,
  MirrorSeedRecord,
  MirrorVersion,
  UsageBaseLimits,
  UsageAlert,
  Account,
  ApiKey,
  ChangeEntry,
  ChangeEntryField,
  ChangeOutbox,
  DeploymentKey,
  MonitoringConfig,
  MonitoringConfigClaim,
  OAuthState,
  SetPasswordToken,
  UpstreamApiCall,
  UpstreamConnection,
  UpstreamWatch,
  UsageBase,
  UsageRun,
  UsageSnapshot,
  User,
  UserSession,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryAttempt,
];
