import { z } from 'zod';

const AccountName = z.string().trim().min(1, 'must not be empty').max(255).meta({ description: 'the account’s name, 1–255 characters' });
const KeyName = z.string().trim().min(1, 'must not be empty').max(100).meta({ description: 'what the key is for, 1–100 characters' });

/** What renaming an account (`AccountService.rename`) and making a named key (`createKey`) accept. */
export const accountInput = {
  rename: z.strictObject({ name: AccountName }),
  createKey: z.strictObject({ name: KeyName }),
};
