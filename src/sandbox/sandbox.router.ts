import express, { type Router } from 'express';
import { createAuthMiddleware } from './auth.middleware.js';
import { createBasesRouter } from './bases.routes.js';
import { createControlRouter } from './control.routes.js';
import { notFoundHandler, sandboxErrorHandler } from './error-handler.js';
import type { FaultControl } from './fault-control.js';
import { createFieldsRouter } from './fields.routes.js';
import type { IteratorRegistry } from './iterator-registry.js';
import type { RateLimiter } from './rate-limiter.js';
import { createRecordsRouter } from './records.routes.js';
import type { SandboxStats } from './sandbox-stats.js';
import type { SandboxStore } from './sandbox-store.js';
import { createTablesRouter } from './tables.routes.js';
import { createTrafficMiddleware } from './traffic.middleware.js';
import type { SandboxWebhooks } from './webhooks/webhook-registry.js';
import { createWebhooksRouter } from './webhooks/webhooks.routes.js';

export interface SandboxRouterDependencies {
  token: string;
  store: SandboxStore;
  iterators: IteratorRegistry;
  faults: FaultControl;
  limiter: RateLimiter;
  stats: SandboxStats;
  webhooks: SandboxWebhooks;
  basesIteratorId: string;
}

const MAX_BODY = '2mb';

/** auth → control routes | traffic (rate limit → latency → injected error) → JSON body → API routes → 404. */
export function createSandboxRouter(deps: SandboxRouterDependencies): Router {
  const router = express.Router();
  router.use(createAuthMiddleware(deps.token));
  router.use('/_control', createControlRouter(deps.faults));
  router.use(createTrafficMiddleware(deps));
  router.use(express.json({ limit: MAX_BODY }));
  router.use(createBasesRouter(deps.store, deps.basesIteratorId));
  router.use(createTablesRouter(deps.store));
  router.use(createFieldsRouter(deps.store));
  router.use(createWebhooksRouter(deps.webhooks));
  router.use(createRecordsRouter(deps.store, deps.iterators));
  router.use(notFoundHandler);
  router.use(sandboxErrorHandler);
  return router;
}
