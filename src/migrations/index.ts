import { Initial1763712000000 } from './1763712000000-initial.js';
import { AgendaJobs1763800000000 } from './1763800000000-agenda-jobs.js';
import { UsageRuns1763900000000 } from './1763900000000-usage-runs.js';
import { AuditLog1764000000000 } from './1764000000000-audit-log.js';
import { WebhookForwarding1764100000000 } from './1764100000000-webhook-forwarding.js';
import { ChangeLogVersion1764200000000 } from './1764200000000-change-log-version.js';
import { MonitoringConfigStatus1764300000000 } from './1764300000000-monitoring-config-status.js';
import { UpstreamConnections1764400000000 } from './1764400000000-upstream-connections.js';
import { OneWatchPerBase1764500000000 } from './1764500000000-one-watch-per-base.js';
import { UsersAndSessions1764600000000 } from './1764600000000-users-and-sessions.js';
import { ApiKeyNameAndUse1764700000000 } from './1764700000000-api-key-name-and-use.js';
import { UsageBaseLimits1764800000000 } from './1764800000000-usage-base-limits.js';
import { UsageInsight1764900000000 } from './1764900000000-usage-insight.js';
import { UpstreamApiCalls1765000000000 } from './1765000000000-upstream-api-calls.js';
import { DeploymentKey1765123000000 } from './1765123000000-deployment-key.js';
import { MonitoringConfigClaim1765250000000 } from './1765250000000-monitoring-config-claim.js';
import { Mirror1765400000000 } from './1765400000000-mirror.js';
import { MirrorSeedStats1765500000000 } from './1765500000000-mirror-seed-stats.js';

/** Listed as classes, not globs, so they load the same from src (vitest, tsx) and dist (node). */
export const migrations = [
  Initial1763712000000,
  AgendaJobs1763800000000,
  UsageRuns1763900000000,
  AuditLog1764000000000,
  WebhookForwarding1764100000000,
  ChangeLogVersion1764200000000,
  MonitoringConfigStatus1764300000000,
  UpstreamConnections1764400000000,
  OneWatchPerBase1764500000000,
  UsersAndSessions1764600000000,
  ApiKeyNameAndUse1764700000000,
  UsageBaseLimits1764800000000,
  UsageInsight1764900000000,
  UpstreamApiCalls1765000000000,
  DeploymentKey1765123000000,
  MonitoringConfigClaim1765250000000,
  Mirror1765400000000,
  MirrorSeedStats1765500000000,
];
