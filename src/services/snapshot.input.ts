import { z } from 'zod';
import { Day, queryInteger } from './input-fields.js';

/** What a page of snapshot days (`SnapshotService.listOf`) accepts as a query. */
export const snapshotInput = {
  list: z.object({
    from: Day.optional().meta({ description: 'oldest day included' }),
    to: Day.optional().meta({ description: 'newest day included' }),
    cursor: Day.optional().meta({ description: 'a nextCursor: only days older than it' }),
    limit: queryInteger(1, 365, 30).meta({ description: 'days per page' }),
  }),
};
