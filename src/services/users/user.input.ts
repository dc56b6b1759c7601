import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../credentials/password.js';

/** Lower-cased and trimmed; the shape only (something@something): whether it receives mail is the person's business. */
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address')
  .meta({ example: 'ada@example.com' });

/** The rules a new password meets beyond its length are checked by the service (they need the e-mail). */
const Password = z.string().max(PASSWORD_MAX_LENGTH).meta({ example: 'correct horse battery' });

export const userInput = {
  signUp: z.strictObject({ email: Email, password: Password, accountName: z.string().trim().min(1).max(255).optional() }),
  signIn: z.strictObject({ email: Email, password: Password }),
  changePassword: z.strictObject({ currentPassword: Password, newPassword: Password }),
  setPassword: z.strictObject({ token: z.string().min(1).max(128), password: Password }),
};
