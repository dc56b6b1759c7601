import express, { type Router } from 'express';
import { createAccessCheck } from './auth/access.js';
import { principalOf } from './auth/principal.js';
import type { SandboxAuth } from './auth/sandbox-auth.js';
import { createUsersControlRouter } from './auth/users-control.routes.js';
import { createWhoamiRouter } from './auth/whoami.routes.js';
import { adminOnly, createAuthMiddleware } from './auth.middleware.js';
import { createBasesRouter } from './bases.routes.js';
import { createControlRouter } from './control.routes.js';
import { notFoundHandler, sandboxErrorHandler } from './error-handler.js';
import type { FaultControl } from './fault-control.js';
import { createFieldsRouter } from './fields.routes.js';
import type { IteratorRegistry } from './iterator-registry.js';
import { createOAuthControlRouter } from './oauth/oauth-control.routes.js';
import { createOAuthRouter } from './oauth/oauth.router.js';
import type { RateLimiter } from './rate-limiter.js';
import { createRecordsRouter } from './records.routes.js';
import type { SandboxStats } from './sandbox-stats.js';
import type { SandboxStore } from './sandbox-store.js';
import { createTablesRouter } from './tables.routes.js';
import { createTrafficMiddleware } from './traffic.middleware.js';
import type { SandboxWebhooks } from './webhooks/webhook-registry.js';
import { createWebhooksControlRouter } from './webhooks/webhooks-control.routes.js';
import { createWebhooksRouter } from './webhooks/webhooks.routes.js';

export interface SandboxRouterDependencies {
  auth: SandboxAuth;
  store: SandboxStore;
  iterators: IteratorRegistry;
  faults: FaultControl;
  limiter: RateLimiter;
  stats: SandboxStats;
  webhooks: SandboxWebhooks;
  basesIteratorId: string;
}

const MAX_BODY = '2mb';

/**
 * OAuth routes | auth → control routes (admin token) | traffic (user rate limit → base and scope access → base rate
 * limit → latency → injected error) → JSON body → API routes → 404.
 */
export function createSandboxRouter(deps: SandboxRouterDependencies): Router {
  const { auth } = deps;
  const router = express.Router();
  router.use(createOAuthRouter(auth));
  router.use(createAuthMiddleware(auth));
  router.use(
    '/_control',
    adminOnly,
    createControlRouter(deps.faults, deps.stats, deps.store),
    createWebhooksControlRouter(deps.webhooks),
    createUsersControlRouter(auth),
    createOAuthControlRouter(auth),
  );
  router.use(createTrafficMiddleware({ ...deps, checkAccess: createAccessCheck(auth) }));
  router.use(express.json({ limit: MAX_BODY }));
  router.use(createWhoamiRouter());
  router.use(createBasesRouter(deps.store, deps.basesIteratorId, (req) => auth.visibleBases(principalOf(req)!)));
  router.use(createTablesRouter(deps.store));
  router.use(createFieldsRouter(deps.store));
  router.use(createWebhooksRouter(deps.webhooks));
  router.use(createRecordsRouter(deps.store, deps.iterators));
  router.use(notFoundHandler);
  router.use(sandboxErrorHandler);
  return router;
}
