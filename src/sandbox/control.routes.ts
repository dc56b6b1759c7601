import express, { type Router } from 'express';
import type { FaultControl } from './fault-control.js';

/** Sandbox-only: read and change fault injection at run time. Not rate limited, not counted, never faulted. */
export function createControlRouter(faults: FaultControl): Router {
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

  router.post('/expire-iterators', (_req, res) => {
    res.json({ expired: faults.expireIterators() });
  });

  return router;
}
