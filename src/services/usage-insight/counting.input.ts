import { z } from 'zod';

/** What PUT /usage/bases/{id}/counting accepts. */
export const countingInput = {
  update: z.strictObject({
    countOnlyWhenChanged: z.boolean().meta({
      description: 'skip the scheduled count on a day the audit log shows no change of the base (needs a monitoring config of it)',
    }),
  }),
};

export type CountingUpdate = z.infer<typeof countingInput.update>;
