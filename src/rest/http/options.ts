import type { NextFunction, Request, Response } from 'express';
import type { RouteSpec } from './route.js';

/** A path and one of its methods; a GET serves HEAD too (Express answers it for REST routes) unless `head` is false. */
export type Endpoint = Pick<RouteSpec, 'method' | 'path'> & { head?: false };

/**
 * OPTIONS on an API path: 204 with every method the path serves in `Allow` (and, for a CORS preflight that
 * corsPolicy let through, in `Access-Control-Allow-Methods`), before any authentication. Express's own answer lists
 * only the methods of the first router whose paths match, as a `200 text/plain` body.
 */
export function optionsResponder(routes: Endpoint[]) {
  const patterns = routes.map((route) => ({
    path: new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
    methods: route.method === 'get' && route.head !== false ? ['GET', 'HEAD'] : [route.method.toUpperCase()],
  }));
  return (req: Request, res: Response, next: NextFunction): void => {
    const methods = new Set(
      req.method === 'OPTIONS' ? patterns.filter(({ path }) => path.test(req.path)).flatMap((pattern) => pattern.methods) : [],
    );
    if (methods.size === 0) {
      next();
      return;
    }
    const allow = [...methods].sort().join(', ');
    res.setHeader('Allow', allow);
    if (res.hasHeader('Access-Control-Allow-Origin') && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', allow);
    }
    res.status(204).end();
  };
}
