import { Router } from 'express';
import { unavailable } from '../errors.js';
import { mount } from './http/route.js';
import { buildOpenApiDocument } from './openapi.js';
import { opsRoutes as endpoints } from './ops.endpoints.js';

export interface Readiness {
  /** Resolves when the process can serve traffic; rejects (or returns false) otherwise. */
  check(): Promise<boolean>;
}

export function createOpsRouter(readiness: Readiness): Router {
  const router = Router();
  const document = buildOpenApiDocument();

  mount(router, endpoints.healthz, async () => ({ status: 'ok' }));
  mount(router, endpoints.readyz, async () => {
    const ready = await readiness.check().catch(() => false);
    if (!ready) throw unavailable();
    return { status: 'ready' };
  });
  mount(router, endpoints.openapi, async () => document);

  return router;
}
