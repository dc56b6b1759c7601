import { Router } from 'express';
import type { Services } from '../services.js';
import { mount } from './http/route.js';
import { airtableRoutes as endpoints } from './airtable.endpoints.js';

export function createAirtableRouter({ airtableLookup }: Services): Router {
  const router = Router();

  mount(router, endpoints.bases, async ({ account }) => ({
    bases: (await airtableLookup.listBases(account.id)).map(({ id, name, permissionLevel }) => ({ id, name, permissionLevel })),
  }));
  mount(router, endpoints.tables, async ({ account, params }) => ({
    tables: (await airtableLookup.listTables(account.id, params.baseId)).map((table) => ({
      id: table.id,
      name: table.name,
      primaryFieldId: table.primaryFieldId,
      fields: table.fields.map(({ id, name, type }) => ({ id, name, type })),
    })),
  }));

  return router;
}
