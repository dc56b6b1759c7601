import express, { type Router } from 'express';
import { z } from 'zod';
import type { FaultControl } from './fault-control.js';
import { parseBody } from './request-helpers.js';
import type { SandboxStats } from './sandbox-stats.js';
import type { SandboxStore } from './sandbox-store.js';

/** A generated base for load tests: at most 2,000,000 records, so one request cannot exhaust the process. */
const largeBase = z
  .object({
    name: z.string().min(1).max(200),
    tables: z.number().int().min(1).max(100),
    recordsPerTable: z.number().int().min(0).max(200_000),
    attachmentsPerRecord: z.number().int().min(0).max(10).optional(),
    fieldsPerTable: z.number().int().min(3).max(100).optional(),
  })
  .refine((base) => base.tables * base.recordsPerTable <= 2_000_000, 'at most 2,000,000 records in all');

/**
 * Sandbox-only: read and change fault injection at run time, read the traffic counters and add generated bases (what
 * a test or bench in another process needs, e.g. that replicas together drew no 429). Not rate limited, not counted,
 * never faulted.
 */
export function createControlRouter(faults: FaultControl, stats: SandboxStats, store: SandboxStore): Router {
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

  // The demo user's, as the seeded large bases are: what a bench in another process counts.
  router.post('/bases/large', (req, res) => {
    const base = store.seedLargeBase(parseBody(largeBase, req.body));
    res.status(201).json({ id: base.id, name: base.name, summary: store.summarizeBase(base.id) });
  });

  // What a count of the base over the API should arrive at (records, files, attachment bytes, per table).
  router.get('/bases/:baseId/summary', (req, res) => {
    res.json(store.summarizeBase(req.params.baseId));
  });

  router.post('/expire-iterators', (_req, res) => {
    res.json({ expired: faults.expireIterators() });
  });

  return router;
}
