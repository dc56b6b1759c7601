import type { NextFunction, Request, Response } from 'express';
import type { Metrics } from './registry.js';
import { routeLabelOf } from './route-label.js';

/** Times every answered request into `basewatch_http_request_duration_seconds`. Mounted first, so it sees them all. */
export function httpMetrics(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once('finish', () => {
      metrics.requestServed(routeLabelOf(req, res), req.method, res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}
