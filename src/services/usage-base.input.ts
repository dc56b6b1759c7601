import { z } from 'zod';
import { TimeZone, UpstreamBaseId } from './input-fields.js';

const BaseName = z
  .string()
  .min(1)
  .max(255)
  .refine((v) => v.trim().length > 0, 'must not be blank')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters in a name is this check's purpose
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters');
const ScheduledHour = z.number().int().min(0).max(23).meta({ description: 'local hour of the daily count, 0–23' });

/** What tracking a base (`UsageBaseService.create`) and changing it (`update`) accept, over REST and GraphQL alike. */
export const usageBaseInput = {
  create: z.strictObject({
    baseId: UpstreamBaseId,
    baseName: BaseName.optional().meta({ description: 'default: the upstream name' }),
    scheduledHour: ScheduledHour.optional().meta({ default: 0 }),
    timezone: TimeZone.optional().meta({ default: 'UTC' }),
  }),
  update: z.strictObject({
    baseName: BaseName.optional(),
    scheduledHour: ScheduledHour.optional(),
    timezone: TimeZone.optional(),
  }),
};
