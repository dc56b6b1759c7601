import express, { type Router } from 'express';
import type { SandboxStore } from './sandbox-store.js';
import { invalidOffset } from './sandbox-errors.js';
import { searchParamsOf } from './request-helpers.js';
import { toBaseResponse, toTableResponse } from './schema-response.js';

const BASES_PAGE_SIZE = 1000;

export function createBasesRouter(store: SandboxStore, basesIteratorId: string): Router {
  const router = express.Router();

  router.get('/v0/meta/bases', (req, res) => {
    res.json(listBasesPage(store, basesIteratorId, searchParamsOf(req).get('offset')));
  });

  router.get('/v0/meta/bases/:baseId/tables', (req, res) => {
    const base = store.requireBase(req.params.baseId);
    const withVisibleFields = searchParamsOf(req).getAll('include[]').includes('visibleFieldIds');
    res.json({ tables: base.tables.map((table) => toTableResponse(table, withVisibleFields)) });
  });

  return router;
}

/** Offsets are `itr…/app…`: the listing's iterator id and the last base of the previous page. */
function listBasesPage(store: SandboxStore, iteratorId: string, offset: string | null) {
  const bases = store.listBases();
  let start = 0;
  if (offset !== null) {
    const [offsetIterator, lastBaseId] = offset.split('/');
    const index = bases.findIndex((base) => base.id === lastBaseId);
    if (offsetIterator !== iteratorId || index === -1) throw invalidOffset(offset);
    start = index + 1;
  }
  const page = bases.slice(start, start + BASES_PAGE_SIZE);
  const last = page.at(-1);
  const hasMore = start + BASES_PAGE_SIZE < bases.length;
  return { bases: page.map(toBaseResponse), ...(hasMore && last ? { offset: `${iteratorId}/${last.id}` } : {}) };
}
