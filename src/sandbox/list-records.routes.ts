import express, { type Router } from 'express';
import type { IteratorRegistry } from './iterator-registry.js';
import { listParamsFromBody, listParamsFromQuery, readParamsFromQuery } from './list-params.js';
import { listRecordPage } from './record-listing.js';
import { toRecordResponse } from './record-response.js';
import { searchParamsOf } from './request-helpers.js';
import { recordNotFound } from './sandbox-errors.js';
import type { SandboxStore } from './sandbox-store.js';

export function createListRecordsRouter(store: SandboxStore, iterators: IteratorRegistry): Router {
  const router = express.Router();

  router.get('/v0/:baseId/:table', (req, res) => {
    const { base, table } = store.requireTable(req.params.baseId, req.params.table);
    res.json(listRecordPage(iterators, base.id, table, listParamsFromQuery(searchParamsOf(req))));
  });

  router.post('/v0/:baseId/:table/listRecords', (req, res) => {
    const { base, table } = store.requireTable(req.params.baseId, req.params.table);
    res.json(listRecordPage(iterators, base.id, table, listParamsFromBody(req.body, searchParamsOf(req))));
  });

  router.get('/v0/:baseId/:table/:recordId', (req, res) => {
    const { table } = store.requireTable(req.params.baseId, req.params.table);
    const params = readParamsFromQuery(searchParamsOf(req));
    const record = table.records.get(req.params.recordId);
    if (!record) throw recordNotFound(req.params.recordId);
    res.json(toRecordResponse(table, record, { byFieldId: params.returnFieldsByFieldId }));
  });

  return router;
}
