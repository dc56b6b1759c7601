import { z } from 'zod';
import { bearerToken } from '../../upstream/bearer-token.js';

/** What connecting with a personal access token (`ConnectionService.setToken`) accepts. */
export const connectionInput = {
  setToken: z.strictObject({ token: bearerToken.meta({ example: 'patXXXXXXXXXXXXXX.0123…' }) }),
};
