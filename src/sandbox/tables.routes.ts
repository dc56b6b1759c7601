import express, { type Router } from 'express';
import { createTableBody, updateTableBody } from './meta-bodies.js';
import { actorOf, parseBody } from './request-helpers.js';
import type { SandboxStore } from './sandbox-store.js';
import { toTableResponse } from './schema-response.js';

/** Create and update follow the meta API; DELETE is sandbox-only (the real API cannot delete tables). */
export function createTablesRouter(store: SandboxStore): Router {
  const router = express.Router();

  router.post('/v0/meta/bases/:baseId/tables', (req, res) => {
    store.requireBase(req.params.baseId);
    const actor = actorOf(req);
    const table = store.createTable(req.params.baseId, parseBody(createTableBody, req.body), actor);
    res.json(toTableResponse(table));
  });

  router.patch('/v0/meta/bases/:baseId/tables/:table', (req, res) => {
    store.requireTable(req.params.baseId, req.params.table);
    const actor = actorOf(req);
    const table = store.updateTable(req.params.baseId, req.params.table, parseBody(updateTableBody, req.body), actor);
    res.json(toTableResponse(table));
  });

  router.delete('/v0/meta/bases/:baseId/tables/:table', (req, res) => {
    const table = store.deleteTable(req.params.baseId, req.params.table, actorOf(req));
    res.json({ id: table.id, deleted: true });
  });

  return router;
}
