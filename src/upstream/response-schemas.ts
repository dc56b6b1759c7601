import { z } from 'zod';
import type { UpstreamBase, UpstreamField, UpstreamRecord, UpstreamTable } from './types.js';

const options = z.record(z.string(), z.unknown());

export const baseSchema: z.ZodType<UpstreamBase> = z.object({
  id: z.string(),
  name: z.string(),
  permissionLevel: z.string(),
});

export const fieldSchema: z.ZodType<UpstreamField> = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  description: z.string().optional(),
  options: options.optional(),
});

export const tableSchema: z.ZodType<UpstreamTable> = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  primaryFieldId: z.string(),
  fields: z.array(fieldSchema),
  views: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        type: z.string(),
        visibleFieldIds: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});

export const recordSchema: z.ZodType<UpstreamRecord> = z.object({
  id: z.string(),
  createdTime: z.string(),
  fields: z.record(z.string(), z.unknown()),
});

export const basesPageSchema = z.object({ bases: z.array(baseSchema), offset: z.string().optional() });
export const tablesSchema = z.object({ tables: z.array(tableSchema) });
export const recordsPageSchema = z.object({ records: z.array(recordSchema), offset: z.string().optional() });
export const deletedRecordsSchema = z.object({
  records: z.array(z.object({ id: z.string(), deleted: z.boolean() })),
});

/** GET /v0/meta/whoami: `email` only with user.email:read, `scopes` only for OAuth access tokens. */
export const whoamiSchema = z.object({
  id: z.string(),
  email: z.string().optional(),
  scopes: z.array(z.string()).optional(),
});
