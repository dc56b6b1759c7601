import express, { type Router } from 'express';
import type { IteratorRegistry } from './iterator-registry.js';
import { createListRecordsRouter } from './list-records.routes.js';
import { createRecordWritesRouter } from './record-writes.routes.js';
import type { SandboxStore } from './sandbox-store.js';

/** Path segments that are never a base id, so /v0/meta/… and /v0/bases/… never reach the records routes. */
const RESERVED_SEGMENTS = new Set(['meta', 'bases']);

export function createRecordsRouter(store: SandboxStore, iterators: IteratorRegistry): Router {
  const router = express.Router();
  router.use('/v0/:baseId', (req, _res, next) => next(RESERVED_SEGMENTS.has(req.params.baseId) ? 'router' : undefined));
  router.use(createListRecordsRouter(store, iterators));
  router.use(createRecordWritesRouter(store));
  return router;
}
