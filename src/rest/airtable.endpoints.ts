import { z } from './zod.js';
import { defineRoute } from './http/route.js';
import { UpstreamBaseId } from '../services/input-fields.js';

const tag = 'Airtable Helpers';

const AirtableBase = z.strictObject({ id: z.string(), name: z.string(), permissionLevel: z.string() }).openapi('AirtableBase');
const AirtableField = z.strictObject({ id: z.string(), name: z.string(), type: z.string() }).openapi('AirtableField');
const AirtableTable = z
  .strictObject({ id: z.string(), name: z.string(), primaryFieldId: z.string(), fields: z.array(AirtableField) })
  .openapi('AirtableTable');

export const airtableRoutes = {
  bases: defineRoute({
    method: 'get',
    path: '/airtable/bases',
    operationId: 'listAirtableBases',
    summary: 'Bases of the connected upstream account',
    tag,
    success: { status: 200, description: 'Upstream bases', schema: z.strictObject({ bases: z.array(AirtableBase) }) },
    errors: [401, 409, 429, 502],
  }),
  tables: defineRoute({
    method: 'get',
    path: '/airtable/bases/{baseId}/tables',
    operationId: 'listAirtableTables',
    summary: 'Tables and fields of an upstream base',
    tag,
    params: z.object({ baseId: UpstreamBaseId }),
    success: { status: 200, description: 'The base’s tables', schema: z.strictObject({ tables: z.array(AirtableTable) }) },
    errors: [400, 401, 404, 409, 429, 502],
  }),
};
