import express, { type Request, type Router } from 'express';
import type { VisibleBase } from './auth/sandbox-auth.js';
import type { SandboxStore } from './sandbox-store.js';
import { invalidOffset } from './sandbox-errors.js';
import { searchParamsOf } from './request-helpers.js';
import { toBaseResponse, toTableResponse } from './schema-response.js';

const BASES_PAGE_SIZE = 1000;

/** `visibleBases`: the bases the request's token may see, with its user's permission level on each. */
export function createBasesRouter(store: SandboxStore, basesIteratorId: string, visibleBases: (req: Request) => VisibleBase[]): Router {
  const router = express.Router();

  router.get('/v0/meta/bases', (req, res) => {
    res.json(listBasesPage(visibleBases(req), basesIteratorId, searchParamsOf(req).get('offset')));
  });

  router.get('/v0/meta/bases/:baseId/tables', (req, res) => {
    const base = store.requireBase(req.params.baseId);
    const withVisibleFields = includes(searchParamsOf(req)).includes('visibleFieldIds');
    res.json({ tables: base.tables.map((table) => toTableResponse(table, withVisibleFields)) });
  });

  return router;
}

/** `include[]=x`, `include[0]=x` and `include=x` all name an inclusion (clients send the bare form to the platform too). */
function includes(query: URLSearchParams): string[] {
  return [...query].filter(([key]) => /^include(\[\d*\])?$/.test(key)).map(([, value]) => value);
}

/** Offsets are `itr…/app…`: the listing's iterator id and the last base of the previous page. */
function listBasesPage(bases: VisibleBase[], iteratorId: string, offset: string | null) {
  let start = 0;
  if (offset !== null && offset !== '') {
    const [offsetIterator, lastBaseId] = offset.split('/');
    const index = bases.findIndex(({ base }) => base.id === lastBaseId);
    if (offsetIterator !== iteratorId || index === -1) throw invalidOffset(offset);
    start = index + 1;
  }
  const page = bases.slice(start, start + BASES_PAGE_SIZE);
  const last = page.at(-1);
  const hasMore = start + BASES_PAGE_SIZE < bases.length;
  return {
    bases: page.map(({ base, level }) => ({ ...toBaseResponse(base), permissionLevel: level })),
    ...(hasMore && last ? { offset: `${iteratorId}/${last.base.id}` } : {}),
  };
}
