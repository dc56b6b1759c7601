import { z } from 'zod';

/** What connecting with a personal access token (`ConnectionService.setToken`) accepts. */
export const connectionInput = {
  setToken: z.strictObject({ token: z.string().min(1).max(512).meta({ example: 'patXXXXXXXXXXXXXX.0123…' }) }),
};
