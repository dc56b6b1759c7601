import { z } from 'zod';
import { PLAN_NAMES } from './plans.js';

const Threshold = z.number().int().min(1).max(1_000);

/** What `PUT /usage/bases/{id}/limits` accepts (CONTRACT §10): a named plan, or numbers of its own, and thresholds. */
export const usageLimitsInput = {
  update: z
    .strictObject({
      plan: z
        .enum([...PLAN_NAMES, 'custom'])
        .nullable()
        .optional()
        .meta({ description: 'a named plan fills both limits; null clears them; custom keeps the numbers given' }),
      recordLimit: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
      storageLimitBytes: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
      thresholds: z
        .array(Threshold)
        .min(1)
        .max(10)
        .refine((values) => new Set(values).size === values.length, 'must not repeat a threshold')
        .optional()
        .meta({ description: 'percent of each limit at which an alert is recorded, 1–1000' }),
    })
    .refine(
      (body) => !(body.plan && body.plan !== 'custom' && (body.recordLimit !== undefined || body.storageLimitBytes !== undefined)),
      'give a named plan or limits of your own, not both',
    ),
};

export type UsageLimitsUpdate = z.infer<typeof usageLimitsInput.update>;
