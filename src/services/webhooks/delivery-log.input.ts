import { z } from 'zod';
import { queryInteger } from '../input-fields.js';

/** What a page of a webhook's delivery log (`DeliveryLogService.list`) accepts as a query. */
export const deliveryLogInput = {
  list: z.object({
    status: z.enum(['pending', 'succeeded', 'failed']).optional(),
    limit: queryInteger(1, 100, 50),
    cursor: z.string().min(1).optional().meta({ description: 'a nextCursor of this webhook’s log' }),
  }),
};
