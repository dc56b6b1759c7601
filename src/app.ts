import express, { type Express } from 'express';
import type { Store } from 'express-rate-limit';
import { authenticate } from './auth/authenticate.js';
import { requireCsrfToken } from './auth/csrf.js';
import { RequestBudget } from './auth/request-budget.js';
import { secureCookies } from './auth/session-cookie.js';
import type { Config } from './config.js';
import { AppError, notFound } from './errors.js';
import type { Logger } from './logger.js';
import type { Agenda } from 'agenda';
import type { GraphqlGateway } from './graphql/gateway.js';
import { httpMetrics } from './metrics/http-metrics.js';
import { createMetricsRouter } from './metrics/metrics.routes.js';
import type { Metrics } from './metrics/registry.js';
import { createAdminRouter } from './rest/admin.routes.js';
import { createAirtableRouter } from './rest/airtable.routes.js';
import { createApiCallsRouter } from './rest/api-calls.routes.js';
import { createAuthRouter } from './rest/auth.routes.js';
import { createChangesRouter } from './rest/changes.routes.js';
import { createConnectionRouter } from './rest/connection.routes.js';
import { createDocsRouter } from './rest/docs.routes.js';
import { corsPolicy } from './http/cors.js';
import { errorHandler, renderError, requireUtf8 } from './http/error-handler.js';
import { optionsResponder, type Endpoint } from './rest/http/options.js';
import { enteredFor } from './rest/http/route.js';
import { requestLog } from './http/request-log.js';
import { securityHeaders } from './http/security-headers.js';
import { createMirrorRouter } from './rest/mirror.routes.js';
import { createMonitoringRouter, createNotificationRouter } from './rest/monitoring.routes.js';
import { allRoutes } from './rest/openapi.js';
import { createOpsRouter, type Readiness } from './rest/ops.routes.js';
import { createUsageRouter } from './rest/usage.routes.js';
import { createWebhooksRouter } from './rest/webhooks.routes.js';
import type { Services } from './services.js';
import type { Sandbox } from './sandbox/index.js';
import { createOAuthReturnRouter } from './web/oauth-return.routes.js';
import { createWebAssetsRouter, createWebPageRouter } from './web/web.routes.js';
import { sandboxProxy } from './web-concurrency/sandbox-proxy.js';

/** /graphql's methods, for OPTIONS and CORS preflights (the gateway's router serves them; Apollo refuses HEAD). */
const GRAPHQL_ENDPOINT: Endpoint[] = [
  { method: 'get', path: '/graphql', head: false },
  { method: 'post', path: '/graphql' },
];

export interface AppDeps {
  config: Config;
  services: Services;
  logger: Logger;
  readiness: Readiness;
  /** Mounted at /sandbox/airtable when the sandbox is the upstream. */
  sandbox?: Sandbox;
  /** Where /sandbox/airtable is passed when the sandbox lives in another process (a WEB_CONCURRENCY worker's primary). */
  sandboxProxyTarget?: string;
  /** True once shutdown began: requests still arriving on kept-alive connections get a 503. */
  isShuttingDown: () => boolean;
  /** True while the service drains before shutdown (SHUTDOWN_DRAIN_MS): requests are served, connections then closed. */
  isDraining?: () => boolean;
  /** The scheduler, for the operator dashboard at /admin/jobs (mounted only with ADMIN_TOKEN). */
  agenda?: Agenda;
  /** /graphql and its IDE, behind the same key check and budget as REST. */
  graphql?: GraphqlGateway;
  /** Where request limits (sign-in failures, and the budget when none is given) are kept, per prefix; none: this process's memory (shared-state.ts). */
  limitStore?: (prefix: string) => Store | undefined;
  /** Each account's request budget, shared with the subscription socket; made from `limitStore` when absent. */
  budget?: RequestBudget;
  /** Every request is timed into it; served at /metrics (mounted only with ADMIN_TOKEN). */
  metrics: Metrics;
  /** What /metrics answers; this process's registry, or under WEB_CONCURRENCY the workers' sum from the primary (web-concurrency/primary-loopback.ts). */
  gatherMetrics?: () => Promise<string>;
}

const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** The Express app: REST routers, the sandbox, docs. No listen(): the caller owns the server. */
export function createApp({
  config,
  services,
  logger,
  readiness,
  sandbox,
  sandboxProxyTarget,
  isShuttingDown,
  isDraining,
  agenda,
  graphql,
  metrics,
  gatherMetrics,
  limitStore,
  budget,
}: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Express would hash every body for an ETag; a year of snapshots is megabytes.
  app.set('etag', false);

  app.use(httpMetrics(metrics));
  app.use(requestLog(logger));
  app.use(securityHeaders(config.publicUrl));
  app.use((_req, res, next) => {
    if (isDraining?.()) res.setHeader('Connection', 'close');
    if (!isShuttingDown()) return next();
    res.setHeader('Connection', 'close');
    renderError(new AppError('unavailable', 'The service is shutting down'), res);
  });

  if (sandbox) app.use('/sandbox/airtable', sandbox.router);
  else if (sandboxProxyTarget) app.use('/sandbox/airtable', sandboxProxy(sandboxProxyTarget));
  if (config.adminToken && agenda) app.use(createAdminRouter(config.adminToken, agenda));
  if (config.adminToken) app.use(createMetricsRouter(config.adminToken, metrics.registry, gatherMetrics));
  app.use(createWebAssetsRouter());
  // From here on the APIs: CORS headers on every answer (errors included), preflights answered before authentication.
  const cors = corsPolicy(config.corsOrigins);
  if (cors) app.use(cors);
  app.use(optionsResponder(graphql ? [...allRoutes, ...GRAPHQL_ENDPOINT] : allRoutes));

  app.use(createNotificationRouter(services));
  app.use(express.json({ limit: JSON_BODY_LIMIT_BYTES, verify: requireUtf8 }));
  const secureCookie = secureCookies(config.publicUrl);
  app.use(authenticate(services.accounts, services.sessions, secureCookie));
  app.use(requireCsrfToken());
  app.use((budget ?? new RequestBudget(config.apiRateLimitPerMinute, limitStore?.('budget:'))).middleware);

  // The busiest first; a router of operations is entered only for its own paths.
  if (graphql) app.use(graphql.router);
  app.use(enteredFor(createUsageRouter(services)));
  app.use(enteredFor(createApiCallsRouter(services)));
  app.use(enteredFor(createChangesRouter(services)));
  app.use(enteredFor(createMonitoringRouter(services)));
  app.use(enteredFor(createMirrorRouter(services)));
  app.use(enteredFor(createWebhooksRouter(services)));
  app.use(enteredFor(createAirtableRouter(services)));
  app.use(createOAuthReturnRouter(services, secureCookie));
  app.use(enteredFor(createConnectionRouter(services, secureCookie)));
  // Its sign-in limiters are layers of its own: entered by every request.
  app.use(createAuthRouter(services, secureCookie, limitStore));
  app.use(enteredFor(createOpsRouter(readiness)));
  app.use(createDocsRouter());
  // Last: the web application's page for browser paths no route above answered.
  app.use(createWebPageRouter(undefined, { upstream: config.upstream.mode }));

  app.use(() => {
    throw notFound('Route');
  });
  app.use(errorHandler(logger));
  return app;
}
