import { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../errors.js';
import { OAUTH_CALLBACK_PATH } from '../rest/connection.spec.js';
import type { Services } from '../services.js';

/**
 * A browser that the upstream sends back to the OAuth callback (it asks for text/html) returns to the web
 * application's settings, with the outcome in the query (`oauth=connected`, or `oauthError=<the API's message>`).
 * Other clients keep the REST answer (JSON) of the callback route, which handles the same code the same way.
 */
export function createOAuthReturnRouter({ oauthFlow }: Services): Router {
  const router = Router();
  router.get(OAUTH_CALLBACK_PATH, async (req: Request, res: Response, next: NextFunction) => {
    if (!(req.headers.accept ?? '').includes('text/html')) return next();
    const { code, state, error } = req.query;
    try {
      await oauthFlow.complete({ code: single(code), state: single(state), error: single(error) });
      res.redirect(303, '/settings?oauth=connected');
    } catch (failure) {
      if (!(failure instanceof AppError)) return next(failure);
      res.redirect(303, `/settings?oauthError=${encodeURIComponent(failure.message)}`);
    }
  });
  return router;
}

const single = (value: unknown): string | undefined => (typeof value === 'string' && value.length <= 2048 ? value : undefined);
