import { z } from 'zod';

/** A calendar month: exactly YYYY-MM. */
export const Month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month in the form YYYY-MM')
  .meta({ example: '2026-11' });

/** What `GET /usage/api-calls` accepts as a query (CONTRACT §10). */
export const apiCallInput = {
  usage: z.object({
    month: Month.optional().meta({ description: 'the UTC month; default: this month. A month still to come is a 400' }),
  }),
};
