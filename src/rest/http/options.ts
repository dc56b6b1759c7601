import type { NextFunction, Request, Response } from 'express';
import type { RouteSpec } from './route.js';

/**
 * OPTIONS on a REST path: 204 with every method the path serves in `Allow`. Express's own answer lists only the
 * methods of the first router whose paths match, as a `200 text/plain` body.
 */
export function optionsResponder(routes: RouteSpec[]) {
  const patterns = routes.map((route) => ({
    path: new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
    method: route.method.toUpperCase(),
  }));
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'OPTIONS') return next();
    const methods = new Set(patterns.filter(({ path }) => path.test(req.path)).map(({ method }) => method));
    if (methods.size === 0) return next();
    if (methods.has('GET')) methods.add('HEAD');
    res.setHeader('Allow', [...methods].sort().join(', '));
    res.status(204).end();
  };
}
