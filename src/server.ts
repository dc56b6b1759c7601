import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import { createApp } from './app.js';
import { capConnectionsPerAddress, slowRequestOptions } from './connection-limits.js';
import { RequestBudget } from './auth/request-budget.js';
import { createGraphqlGateway, type GraphqlGateway } from './graphql/gateway.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { createScheduler, type Scheduler } from './jobs/agenda.js';
import type { Metrics } from './metrics/registry.js';
import type { Services } from './services.js';
import { openServiceRuntime, type ServiceRuntime } from './service-runtime.js';
import { pingDatabase } from './repositories/database-ping.js';
import { answerClientError } from './http/client-error.js';
import { prepareAccess, type StartupAccess } from './startup-access.js';
import type { Sandbox } from './sandbox/index.js';

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

  let runtime: ServiceRuntime | undefined;
  let scheduler: Scheduler | undefined;
  let graphql: GraphqlGateway | undefined;
  try {
    const { primaryUrl } = options;
    runtime = await openServiceRuntime(config, logger, { url, primaryUrl });
    const { dataSource, services, sandbox, shared, metrics, remoteSandbox } = runtime;
    const gatherMetrics = primaryUrl && config.adminToken ? workersMetrics(primaryUrl, config.adminToken) : undefined;
    scheduler = await createScheduler(config, dataSource, services, logger, metrics);
    // One budget per account for HTTP and the subscription socket alike.
    const budget = new RequestBudget(config.apiRateLimitPerMinute, shared.limitStore('budget:'));
    graphql = await createGraphqlGateway({ config, services, logger, eventRelay: shared.eventRelay, budget });
    const gateway = graphql;
    let shuttingDown = false;
    /** Out of rotation (/readyz 503) and closing each connection after its answer, but still serving. */
    let draining = false;
    const db = dataSource;
    const ready = runtime;
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
        server.closeAllConnections();
        await ready.close();
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
    await runtime?.close().catch(() => undefined);
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
