import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import express from 'express';
import type { DataSource } from 'typeorm';
import { createApp } from './app.js';
import { capConnectionsPerAddress, slowRequestOptions } from './connection-limits.js';
import { RequestBudget } from './auth/request-budget.js';
import { createGraphqlGateway, type GraphqlGateway } from './graphql/gateway.js';
import type { Config } from './config.js';
import { safeError, type Logger } from './logger.js';
import { createScheduler, type Scheduler } from './jobs/agenda.js';
import { createMetrics, type Metrics } from './metrics/registry.js';
import { pingDatabase } from './repositories/database-ping.js';
import { answerClientError } from './http/client-error.js';
import { createServices, type Services } from './services.js';
import { ApiCallLedgerService } from './services/usage-insight/api-call-ledger.service.js';
import { prepareAccess, type StartupAccess } from './startup-access.js';
import { upstreamNotConnected } from './errors.js';
import { UpstreamClient } from './upstream/client.js';
import { OAuthClient } from './upstream/oauth-client.js';
import type { TokenSource } from './upstream/types.js';
import { OAUTH_CALLBACK_PATH } from './http/oauth-callback-path.js';
import type { Sandbox } from './sandbox/index.js';
import { createEmbeddedSandbox } from './embedded-sandbox.js';
import { openServiceDatabase } from './service-database.js';
import { openSharedState, type SharedState } from './shared-state.js';

export interface RunningServer {
  server: Server;
  port: number;
  /** The service's own base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  publicUrl: string;
  dataSource: DataSource;
  services: Services;
  sandbox?: Sandbox;
  /** How a person gets in (settled before the first request is served). */
  access: StartupAccess;
  scheduler: Scheduler;
  /** /graphql, unless GRAPHQL is off. */
  graphql?: GraphqlGateway;
  /** This process's metrics (served at /metrics with ADMIN_TOKEN; under WEB_CONCURRENCY the primary sums the workers'). */
  metrics: Metrics;
  /** Graceful stop: refuse new work, finish in-flight requests and counts (up to the shutdown timeout), close the database. */
  close(): Promise<void>;
}

const ABANDONED_ANSWER_GRACE_MS = 1_000;

export interface StartOptions {
  /**
   * Under WEB_CONCURRENCY > 1 (web-concurrency/primary.ts), the primary's loopback port: the built-in sandbox lives
   * there, and /metrics answers with the sum over the workers from there.
   */
  primaryUrl?: string;
}

/** Starts the service. The port is bound first and answers 503 until everything is ready. */
export async function startServer(config: Config, logger: Logger, options: StartOptions = {}): Promise<RunningServer> {
  let handler: RequestListener = (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1', 'x-content-type-options': 'nosniff' });
    res.end(JSON.stringify({ message: 'The service is starting', code: 'unavailable' }));
  };
  const server = createServer(slowRequestOptions(config.connections), (req, res) => handler(req, res));
  server.on('clientError', answerClientError);
  capConnectionsPerAddress(server, config.connections.maxPerAddress);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const loopback = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const url = `http://${loopback}:${port}`;

  let dataSource: DataSource | undefined;
  let internalSandbox: InternalSandbox | undefined;
  let sandboxToClose: Sandbox | undefined;
  let scheduler: Scheduler | undefined;
  let graphql: GraphqlGateway | undefined;
  let shared: SharedState | undefined;
  let apiCallLedger: ApiCallLedgerService | undefined;
  try {
    const opened = await openServiceDatabase(config, logger);
    dataSource = opened.dataSource;
    const secretKey = opened.secretKey;
    shared = await openSharedState(config, logger);
    const { primaryUrl } = options;
    const remoteSandbox = primaryUrl && config.upstream.mode === 'sandbox' ? `${primaryUrl}/sandbox/airtable` : undefined;
    const upstreamLimiter = shared.upstreamLimiter;
    const metrics = createMetrics(dataSource);
    const gatherMetrics = primaryUrl && config.adminToken ? workersMetrics(primaryUrl, config.adminToken) : undefined;
    const sandbox =
      config.upstream.mode === 'sandbox' && !remoteSandbox ? createEmbeddedSandbox(config, config.publicUrl ?? url, logger) : undefined;
    sandboxToClose = sandbox;
    internalSandbox = sandbox ? await serveSandboxInternally(sandbox) : undefined;
    const ledger = new ApiCallLedgerService(dataSource, { logger });
    apiCallLedger = ledger;
    const clientForToken = (token: string | TokenSource) =>
      new UpstreamClient({
        baseUrl: config.upstream.apiUrl ?? remoteSandbox ?? `${internalSandbox!.url}/sandbox/airtable`,
        token,
        requestsPerSecond: config.upstream.requestsPerSecond,
        timeoutMs: config.upstream.timeoutMs,
        maxRetries: config.upstream.maxRetries,
        lockoutMs: config.upstream.lockoutMs,
        retryBaseDelayMs: config.upstream.retryBaseDelayMs,
        limiter: upstreamLimiter,
        logger,
        onAttempt: metrics.upstreamAttempted,
        onRequestSent: ledger.record,
      });
    // Without a deployment token the shared client only ever says so: accounts work through their own connections.
    const upstream = clientForToken(config.upstream.token ?? { userKey: 'none', current: () => Promise.reject(upstreamNotConnected()) });
    const publicUrl = config.publicUrl ?? url;
    const oauthUrl = config.oauth.url ?? (sandbox || remoteSandbox ? `${publicUrl}/sandbox/airtable` : undefined);
    const services = createServices(dataSource, upstream, config, {
      secretKey,
      logger,
      clientForToken,
      oauth:
        config.oauth.clientId && oauthUrl
          ? new OAuthClient({ url: oauthUrl, clientId: config.oauth.clientId, clientSecret: config.oauth.clientSecret })
          : undefined,
      oauthRedirectUri: `${publicUrl}${OAUTH_CALLBACK_PATH}`,
      apiCallLedger: ledger,
      // Without PUBLIC_URL a real upstream cannot reach a loopback address: watch by polling alone.
      notificationUrl:
        config.publicUrl || config.upstream.mode === 'sandbox' ? `${config.publicUrl ?? url}/upstream/notifications` : undefined,
    });
    services.webhookDispatcher.onAttempted(metrics.webhookAttempted);
    scheduler = await createScheduler(config, dataSource, services, logger, metrics);
    // One budget per account for HTTP and the subscription socket alike.
    const budget = new RequestBudget(config.apiRateLimitPerMinute, shared.limitStore('budget:'));
    graphql = await createGraphqlGateway({ config, services, logger, eventRelay: shared.eventRelay, budget });
    const gateway = graphql;
    let shuttingDown = false;
    /** Out of rotation (/readyz 503) and closing each connection after its answer, but still serving. */
    let draining = false;
    const db = dataSource;
    const jobs = scheduler;
    const state = shared;
    const app = createApp({
      config,
      services,
      logger,
      sandbox,
      sandboxProxyTarget: remoteSandbox,
      isShuttingDown: () => shuttingDown,
      isDraining: () => draining,
      agenda: scheduler.agenda,
      graphql,
      metrics,
      gatherMetrics,
      limitStore: (prefix) => state.limitStore(prefix),
      budget,
      readiness: {
        check: async () => {
          if (draining || shuttingDown || !db.isInitialized) return false;
          await pingDatabase(db);
          return (await jobs.isReady()) && (await state.answers());
        },
      },
    });
    const access = await prepareAccess(services.accounts, config, logger);
    await scheduler.start();
    handler = app;
    gateway.listen(server);

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        if (config.shutdownDrainMs > 0) {
          draining = true;
          await sleep(config.shutdownDrainMs);
        }
        shuttingDown = true;
        await gateway.stop();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Kept-alive connections turn idle as their last response ends; close them as they do.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        const deadline = new Promise<void>((resolve) => setTimeout(resolve, config.shutdownTimeoutMs).unref());
        await Promise.race([Promise.all([stopped, services.usageCounts.drain(), jobs.stop(config.shutdownTimeoutMs)]), deadline]);
        const abandoned = await services.usageCounts.abort();
        if (abandoned > 0) {
          logger.warn(
            { counts: abandoned, shutdownTimeoutMs: config.shutdownTimeoutMs },
            'shutdown deadline passed: running counts abandoned',
          );
          // Their callers are answered 503 unavailable: give those responses a moment to be written before the
          // remaining connections are cut.
          await Promise.race([stopped, sleep(ABANDONED_ANSWER_GRACE_MS)]);
        }
        clearInterval(sweep);
        await jobs.stop(config.shutdownTimeoutMs).catch(() => undefined);
        // After the last request could be sent: this process's counts are added to the shared table.
        await ledger.close().catch((error: unknown) => logger.warn({ err: safeError(error) }, 'API-call ledger not stored at shutdown'));
        server.closeAllConnections();
        sandbox?.close();
        await internalSandbox?.close();
        await db.destroy();
        await state.close();
      })());

    return {
      server,
      port,
      url,
      publicUrl: config.publicUrl ?? url,
      dataSource,
      services,
      sandbox,
      access,
      scheduler,
      graphql,
      metrics,
      close,
    };
  } catch (error) {
    server.close();
    await graphql?.stop().catch(() => undefined);
    await scheduler?.stop(0).catch(() => undefined);
    await apiCallLedger?.close().catch(() => undefined);
    sandboxToClose?.close();
    await internalSandbox?.close();
    await dataSource?.destroy().catch(() => undefined);
    await shared?.close().catch(() => undefined);
    throw error;
  }
}

/** Under WEB_CONCURRENCY a worker's /metrics answers with the sum over every worker, which the primary makes. */
function workersMetrics(primaryUrl: string, adminToken: string): () => Promise<string> {
  return async () => {
    const answer = await fetch(`${primaryUrl}/metrics`, { headers: { authorization: `Bearer ${adminToken}` } });
    if (!answer.ok) throw new Error(`the primary's /metrics answered ${answer.status}`);
    return answer.text();
  };
}

interface InternalSandbox {
  url: string;
  close(): Promise<void>;
}

/**
 * The upstream client reaches the sandbox through a loopback listener of its own, so that a shutdown, which stops
 * the public listener at once, does not cut off the counts it lets finish. The same sandbox (state, faults) is
 * mounted on the public app at /sandbox/airtable.
 */
async function serveSandboxInternally(sandbox: Sandbox): Promise<InternalSandbox> {
  const server = createServer(express().use('/sandbox/airtable', sandbox.router));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
