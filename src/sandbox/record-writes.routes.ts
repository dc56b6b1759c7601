import express, { type Request, type Response, type Router } from 'express';
import { toRecordResponse } from './record-response.js';
import { actorOf, searchParamsOf } from './request-helpers.js';
import { recordNotFound } from './sandbox-errors.js';
import type { SandboxStore } from './sandbox-store.js';
import { parseCreateBody, parseDeleteQuery, parseUpdateManyBody, parseUpdateOneBody } from './write-bodies.js';

export function createRecordWritesRouter(store: SandboxStore): Router {
  const router = express.Router();
  const many = '/v0/:baseId/:table';
  const one = '/v0/:baseId/:table/:recordId';

  router.post(many, (req, res) => {
    const { base, table } = store.requireTable(req.params.baseId, req.params.table);
    const actor = actorOf(req);
    const body = parseCreateBody(req.body);
    const created = store.createRecords(base.id, table.id, body.records, { typecast: body.typecast, actor });
    const rendered = created.map((record) => toRecordResponse(table, record, { byFieldId: body.returnFieldsByFieldId }));
    res.json(body.single ? rendered[0] : { records: rendered });
  });

  const updateMany = (replace: boolean) => (req: Request<{ baseId: string; table: string }>, res: Response) => {
    const { base, table } = store.requireTable(req.params.baseId, req.params.table);
    const actor = actorOf(req);
    const body = parseUpdateManyBody(req.body);
    const updated = store.updateRecords(base.id, table.id, body.records, { typecast: body.typecast, replace, actor });
    res.json({ records: updated.map((record) => toRecordResponse(table, record, { byFieldId: body.returnFieldsByFieldId })) });
  };
  router.patch(many, updateMany(false));
  router.put(many, updateMany(true));

  const updateOne = (replace: boolean) => (req: Request<{ baseId: string; table: string; recordId: string }>, res: Response) => {
    const { base, table } = store.requireTable(req.params.baseId, req.params.table);
    if (!table.records.has(req.params.recordId)) throw recordNotFound(req.params.recordId);
    const actor = actorOf(req);
    const body = parseUpdateOneBody(req.body);
    const [updated] = store.updateRecords(base.id, table.id, [{ id: req.params.recordId, fields: body.fields }], {
      typecast: body.typecast,
      replace,
      actor,
    });
    res.json(toRecordResponse(table, updated, { byFieldId: body.returnFieldsByFieldId }));
  };
  router.patch(one, updateOne(false));
  router.put(one, updateOne(true));

  router.delete(many, (req, res) => {
    const { base, table } = store.requireTable(req.params.baseId, req.params.table);
    const ids = parseDeleteQuery(searchParamsOf(req));
    const deleted = store.deleteRecords(base.id, table.id, ids, actorOf(req));
    res.json({ records: deleted.map((id) => ({ id, deleted: true })) });
  });

  router.delete(one, (req, res) => {
    const { base, table } = store.requireTable(req.params.baseId, req.params.table);
    if (!table.records.has(req.params.recordId)) throw recordNotFound(req.params.recordId);
    store.deleteRecords(base.id, table.id, [req.params.recordId], actorOf(req));
    res.json({ id: req.params.recordId, deleted: true });
  });

  return router;
}
