import { z } from 'zod';
import { queryInteger, UpstreamBaseId } from '../input-fields.js';

/** What GET /usage/alerts accepts (CONTRACT §10). */
export const usageAlertInput = {
  list: z.object({
    baseId: UpstreamBaseId.optional().meta({ description: 'only alerts of this upstream base' }),
    limit: queryInteger(1, 100, 50),
    cursor: z.string().min(1).optional().meta({ description: 'a nextCursor of this list' }),
  }),
};

export type UsageAlertQuery = z.infer<typeof usageAlertInput.list>;
