import type { DataSource } from 'typeorm';
import type { Config } from './config.js';
import { safeError, type Logger } from './logger.js';
import { AccountService } from './services/account.service.js';
import { AirtableLookupService } from './services/airtable-lookup.service.js';
import { ChangeIngestService } from './services/audit/change-ingest.service.js';
import { ChangeQueryService } from './services/audit/change-query.service.js';
import { ChangeRetentionService } from './services/audit/change-retention.service.js';
import { ChangeWriterService } from './services/audit/change-writer.service.js';
import { ConfigHealthService } from './services/audit/config-health.service.js';
import { AccessTokenService } from './services/connections/access-token.service.js';
import { ConnectionService } from './services/connections/connection.service.js';
import { OAuthFlowService } from './services/connections/oauth-flow.service.js';
import { UpstreamAccess, type ClientForToken } from './services/connections/upstream-access.js';
import { UpstreamWatchService } from './services/audit/upstream-watch.service.js';
import { MonitoringConfigService } from './services/monitoring-config.service.js';
import { MirrorCountService } from './services/mirror/mirror-count.service.js';
import { MirrorReadService } from './services/mirror/mirror-read.service.js';
import { MirrorRestoreService } from './services/mirror/mirror-restore.service.js';
import { MirrorRetentionService } from './services/mirror/mirror-retention.service.js';
import { MirrorSeedService } from './services/mirror/mirror-seed.service.js';
import { MirrorSink } from './services/mirror/mirror-sink.js';
import { MirrorService } from './services/mirror/mirror.service.js';
import { ReadModelCache } from './services/read-model-cache.js';
import { SecretBox } from './services/secret-box.js';
import { SnapshotService } from './services/snapshot.service.js';
import { UsageBaseService } from './services/usage-base.service.js';
import { UsageCountService } from './services/usage-count.service.js';
import { UsageLimitsService } from './services/usage-limits/usage-limits.service.js';
import { UsageScheduleService } from './services/usage-schedule.service.js';
import type { ApiCallLedgerService } from './services/usage-insight/api-call-ledger.service.js';
import { ApiCallUsageService } from './services/usage-insight/api-call-usage.service.js';
import { SessionService } from './services/users/session.service.js';
import { userOptions } from './services/users/user-options.js';
import { UserService } from './services/users/user.service.js';
import { createWebhookForwarding, type WebhookForwarding } from './services/webhooks/index.js';
import { SEQ_POSITION, SignedCursors } from './services/signed-cursor.js';
import { UsageAlertService } from './services/usage-insight/usage-alert.service.js';
import { UsageCountingService } from './services/usage-insight/usage-counting.service.js';
import { UsageForecastService } from './services/usage-insight/usage-forecast.service.js';
import type { UpstreamClient } from './upstream/client.js';
import type { OAuthClient } from './upstream/oauth-client.js';

export interface Services extends WebhookForwarding {
  dataSource: DataSource;
  upstream: UpstreamClient;
  accounts: AccountService;
  usageBases: UsageBaseService;
  snapshots: SnapshotService;
  usageCounts: UsageCountService;
  usageSchedule: UsageScheduleService;
  /** Each tracked base's plan or own limits, and its alert thresholds. */
  usageLimits: UsageLimitsService;
  usageAlerts: UsageAlertService;
  usageCounting: UsageCountingService;
  usageForecasts: UsageForecastService;
  /** Every upstream request this process sends, per month, upstream user, base and purpose. */
  apiCallLedger: ApiCallLedgerService;
  /** An account's upstream requests in a month, with a projection to its end. */
  apiCalls: ApiCallUsageService;
  airtableLookup: AirtableLookupService;
  secrets: SecretBox;
  /** Each list's signed page cursors (services' nextCursor, GraphQL connections' cursors). */
  cursors: SignedCursors;
  watches: UpstreamWatchService;
  monitoringConfigs: MonitoringConfigService;
  changeIngest: ChangeIngestService;
  changeWriter: ChangeWriterService;
  /** Whether each config's monitored base and Changes table are still there upstream. */
  configHealth: ConfigHealthService;
  changeRetention: ChangeRetentionService;
  changeQueries: ChangeQueryService;
  /** Each account's own upstream connection. */
  connections: ConnectionService;
  oauthFlow: OAuthFlowService;
  accessTokens: AccessTokenService;
  /** The client that acts for an account: its connection, or the shared token in single-team mode. */
  upstreamAccess: UpstreamAccess;
  /** Which bases are mirrored (one mirror per watched base), their seeds, and the reads of them. */
  mirrors: MirrorService;
  mirrorSeeds: MirrorSeedService;
  mirrorReads: MirrorReadService;
  mirrorRestores: MirrorRestoreService;
  mirrorRetention: MirrorRetentionService;
  /** Daily counts from a live mirror, and each full count compared with it. */
  mirrorCounts: MirrorCountService;
  /** The web application's people and their sessions. */
  users: UserService;
  sessions: SessionService;
}

export interface ServiceOptions {
  /** Encrypts secrets at rest (SECRET_KEY). */
  secretKey: Buffer;
  logger: Logger;
  /** Where the upstream pings the service; unset: upstream changes are read by polling only. */
  notificationUrl?: string;
  /** A client acting with one token (an account's connection), with the same limits and retries. */
  clientForToken: ClientForToken;
  /** The OAuth integration; unset: accounts connect with personal access tokens only. */
  oauth?: OAuthClient;
  /** Where the upstream sends the browser back after authorization. */
  oauthRedirectUri: string;
  /** The ledger the clients' `onRequestSent` records into (built before the clients). */
  apiCallLedger: ApiCallLedgerService;
}

/** The composition root: every service, built with `new`. */
export function createServices(dataSource: DataSource, upstream: UpstreamClient, config: Config, options: ServiceOptions): Services {
  const { logger } = options;
  const accounts = new AccountService(dataSource, config.quotas);
  const sessions = new SessionService(dataSource);
  const users = new UserService(dataSource, sessions, userOptions(config));
  const secrets = new SecretBox(options.secretKey);
  const cursors = new SignedCursors(options.secretKey);
  const connections = new ConnectionService(dataSource, secrets, options.clientForToken, logger);
  const oauthFlow = new OAuthFlowService(dataSource, options.oauth, connections, secrets, options.oauthRedirectUri, logger);
  const accessTokens = new AccessTokenService(dataSource, secrets, options.oauth, logger);
  const upstreamAccess = new UpstreamAccess(dataSource, config.sharedToken ? upstream : undefined, accessTokens, options.clientForToken);
  const usageBases = new UsageBaseService(dataSource, upstreamAccess, config.quotas);
  const readModels = new ReadModelCache(config.cacheMaxMb * 1024 * 1024);
  const snapshots = new SnapshotService(dataSource, usageBases, readModels);
  const usageLimits = new UsageLimitsService(dataSource, usageBases);
  const usageCounts = new UsageCountService(dataSource, usageBases, snapshots, upstreamAccess, {
    lockTtlMs: config.countLockTtlMs,
  });
  const airtableLookup = new AirtableLookupService(upstreamAccess);
  const watches = new UpstreamWatchService(dataSource, upstreamAccess, secrets, {
    notificationUrl: options.notificationUrl,
    logger,
  });
  const monitoringConfigs = new MonitoringConfigService(dataSource, upstreamAccess, watches, logger, config.quotas);
  const changeIngest = new ChangeIngestService(dataSource, upstreamAccess, watches);
  const mirrors = new MirrorService(dataSource, logger);
  const mirrorSeeds = new MirrorSeedService(dataSource, upstreamAccess, logger);
  const mirrorReads = new MirrorReadService(dataSource, monitoringConfigs, cursors, config.audit.retentionDays);
  const mirrorRestores = new MirrorRestoreService(dataSource, mirrorReads, upstreamAccess, changeIngest, logger, {
    settleMs: config.mirror.restoreSettleMs,
    requestDeadlineMs: config.mirror.restoreSettleMs / 2,
  });
  const requestSeed = (baseId: string) =>
    void mirrors
      .requestSeed(baseId)
      .catch((error: unknown) => logger.warn({ err: safeError(error), baseId }, 'could not plan a mirror seed'));
  changeIngest.addSink(new MirrorSink(requestSeed));
  monitoringConfigs.addBaseListener({ watched: (baseId) => mirrors.ensure(baseId), released: (baseId) => mirrors.release(baseId) });
  const usageCounting = new UsageCountingService(
    dataSource,
    usageBases,
    snapshots,
    changeIngest,
    upstreamAccess,
    config.audit.retentionDays,
  );
  const usageSchedule = new UsageScheduleService(dataSource, usageBases, usageCounts, usageCounting, {
    spreadMs: config.jobs.usageSpreadMs,
    staleRunMs: config.jobs.lockLifetimeMs,
  });
  const mirrorCounts = new MirrorCountService(dataSource, snapshots, changeIngest, upstreamAccess, logger, requestSeed);
  usageSchedule.useMirrorCounts(mirrorCounts);
  usageCounts.onFullCount(async (base, tables, startedAt) => {
    try {
      await mirrorCounts.compareWithFull(base, tables, startedAt);
      await mirrorCounts.markFullCount(base.baseId, startedAt);
    } catch (error) {
      logger.warn({ err: safeError(error), baseId: base.baseId }, 'could not compare a full count with the mirror');
    }
  });
  const apiCalls = new ApiCallUsageService(options.apiCallLedger, upstreamAccess);
  const configHealth = new ConfigHealthService(dataSource, upstreamAccess, logger);
  const changeWriter = new ChangeWriterService(dataSource, upstreamAccess, configHealth, {
    retryBaseDelayMs: config.audit.writeRetryBaseMs,
    maxRetryDelayMs: config.audit.writeMaxRetryMs,
    logger,
  });
  const changeRetention = new ChangeRetentionService(dataSource, config.audit.retentionDays);
  const changeQueries = new ChangeQueryService(dataSource, cursors, readModels);
  const forwarding = createWebhookForwarding({
    dataSource,
    config,
    secrets,
    cursors,
    tables: airtableLookup,
    watches,
    changeIngest,
    logger,
  });
  const alertCursors = cursors.codec('usage alerts nextCursor', SEQ_POSITION, 'cursor is not a nextCursor of your usage alerts');
  const usageAlerts = new UsageAlertService(dataSource, alertCursors, () => forwarding.webhookDispatcher.wake());
  snapshots.addSink(usageAlerts);
  return {
    dataSource,
    upstream,
    usageAlerts,
    usageCounting,
    usageForecasts: new UsageForecastService(usageBases, snapshots, usageLimits),
    accounts,
    usageBases,
    snapshots,
    usageCounts,
    usageSchedule,
    usageLimits,
    apiCallLedger: options.apiCallLedger,
    apiCalls,
    airtableLookup,
    secrets,
    cursors,
    watches,
    monitoringConfigs,
    changeIngest,
    changeWriter,
    configHealth,
    changeRetention,
    changeQueries,
    connections,
    oauthFlow,
    accessTokens,
    upstreamAccess,
    users,
    sessions,
    mirrors,
    mirrorSeeds,
    mirrorReads,
    mirrorRestores,
    mirrorCounts,
    mirrorRetention: new MirrorRetentionService(dataSource, mirrorReads, config.audit.retentionDays),
    ...forwarding,
  };
}
