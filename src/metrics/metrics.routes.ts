import { Router } from 'express';
import type { Registry } from 'prom-client';
import { requireAdminToken } from '../rest/admin.routes.js';

/** GET /metrics in Prometheus' text format, behind ADMIN_TOKEN exactly like the job dashboard. */
export function createMetricsRouter(adminToken: string, registry: Registry): Router {
  const router = Router();
  router.get('/metrics', requireAdminToken(adminToken), async (_req, res) => {
    const body = await registry.metrics();
    res.set({ 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).send(body);
  });
  return router;
}
