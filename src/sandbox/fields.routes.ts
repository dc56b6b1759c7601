import express, { type Router } from 'express';
import { createFieldBody, updateFieldBody } from './meta-bodies.js';
import { actorOf, parseBody } from './request-helpers.js';
import type { SandboxStore } from './sandbox-store.js';
import { toFieldResponse } from './schema-response.js';

/** Create and update follow the meta API; DELETE is sandbox-only (the real API cannot delete fields). */
export function createFieldsRouter(store: SandboxStore): Router {
  const router = express.Router();
  const path = '/v0/meta/bases/:baseId/tables/:table/fields';

  router.post(path, (req, res) => {
    store.requireTable(req.params.baseId, req.params.table);
    const actor = actorOf(req);
    const field = store.createField(req.params.baseId, req.params.table, parseBody(createFieldBody, req.body), actor);
    res.json(toFieldResponse(field));
  });

  router.patch(`${path}/:fieldId`, (req, res) => {
    const { table } = store.requireTable(req.params.baseId, req.params.table);
    store.requireField(table, req.params.fieldId);
    const actor = actorOf(req);
    const update = parseBody(updateFieldBody, req.body);
    res.json(toFieldResponse(store.updateField(req.params.baseId, table.id, req.params.fieldId, update, actor)));
  });

  router.delete(`${path}/:fieldId`, (req, res) => {
    const field = store.deleteField(req.params.baseId, req.params.table, req.params.fieldId, actorOf(req));
    res.json({ id: field.id, deleted: true });
  });

  return router;
}
