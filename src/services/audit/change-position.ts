import { z } from 'zod';

/**
 * Where a page of changes ended: the last entry's occurrence time (as stored, ISO with milliseconds) and its integer
 * id (the order is (occurredAt, id) descending). The schema checks what a cursor holds.
 */
export const ChangePosition = z.strictObject({
  occurredAt: z.iso.datetime({ precision: 3 }),
  id: z
    .number()
    .int()
    .positive()
    .max(2 ** 48 - 1),
});
export type ChangePosition = z.infer<typeof ChangePosition>;
