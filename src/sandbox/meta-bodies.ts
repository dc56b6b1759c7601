import { z } from 'zod';

const fieldConfig = z.strictObject({
  name: z.string(),
  type: z.string(),
  description: z.string().max(20_000).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
});

const nameOrDescription = z
  .strictObject({ name: z.string().optional(), description: z.string().optional() })
  .refine((update) => update.name !== undefined || update.description !== undefined);

export const createTableBody = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  fields: z.array(fieldConfig).min(1),
});

export const updateTableBody = nameOrDescription;
export const createFieldBody = fieldConfig;
export const updateFieldBody = nameOrDescription;
