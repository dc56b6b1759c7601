import { z } from 'zod';

/** What the upstream's redirect back (`OAuthFlowService.complete`) may carry, each bounded. */
export const oauthFlowInput = {
  callback: z.object({
    code: z.string().max(2048).optional(),
    state: z.string().max(1024).optional(),
    error: z.string().max(256).optional(),
    error_description: z.string().max(2048).optional(),
  }),
};
