import { Router } from 'express';
import type { Registry } from 'prom-client';
import { requireAdminToken } from '../http/admin-token.js';

/**
 * GET /metrics in Prometheus' text format, behind ADMIN_TOKEN exactly like the job dashboard. `gather` is this
 * process's registry, or under WEB_CONCURRENCY every worker's summed (web-concurrency/primary-loopback.ts).
 */
export function createMetricsRouter(
  adminToken: string,
  registry: Registry,
  gather: () => Promise<string> = () => registry.metrics(),
): Router {
  const router = Router();
  router.get('/metrics', requireAdminToken(adminToken), async (_req, res) => {
    const body = await gather();
    res.set({ 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).send(body);
  });
  return router;
}
