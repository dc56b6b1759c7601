import express, { type Router } from 'express';
import type { FaultControl } from './fault-control.js';
import type { SandboxStats } from './sandbox-stats.js';

/**
 * Sandbox-only: read and change fault injection at run time, and read the traffic counters (what a test or bench in
 * another process checks, e.g. that replicas together drew no 429). Not rate limited, not counted, never faulted.
 */
export function createControlRouter(faults: FaultControl, stats: SandboxStats): Router {
  const router = express.Router();
  router.use(express.json({ limit: '100kb' }));

  router.get('/faults', (_req, res) => {
    res.json(faults.get());
  });

  router.put('/faults', (req, res) => {
    res.json(faults.update(req.body ?? {}));
  });

  router.delete('/faults', (_req, res) => {
    res.json(faults.reset());
  });

  router.get('/stats', (_req, res) => {
    res.json({
      requests: stats.requests,
      rateLimited: stats.rateLimited,
      faultsInjected: stats.faultsInjected,
      byBase: Object.fromEntries(stats.byBase),
    });
  });

  router.post('/expire-iterators', (_req, res) => {
    res.json({ expired: faults.expireIterators() });
  });

  return router;
}
