import type { NextFunction, Request, Response } from 'express';
import type { Level, Logger } from 'pino';

/**
 * One JSON line per finished request: `req` (id, method, url), `res.statusCode`, `responseTime` in ms and the caller's
 * `accountId`, never a header. The same fields pino-http writes, without its two child loggers per request, which
 * were a quarter of the CPU of a cached snapshot page (bench/snapshot-history.bench.ts).
 */
export function requestLog(logger: Logger) {
  let lastId = 0;
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const id = ++lastId;
    const done = (aborted: boolean) => {
      res.removeListener('finish', finished);
      res.removeListener('close', closed);
      const level = levelOf(req, res.statusCode, aborted);
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          req: { id, method: req.method, url: withoutTokens(req.originalUrl) },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
          accountId: (res.locals.account as { id?: string } | undefined)?.id,
        },
        aborted ? 'request aborted' : res.statusCode >= 500 ? 'request errored' : 'request completed',
      );
    };
    const finished = () => done(false);
    const closed = () => done(!res.writableFinished);
    res.on('finish', finished);
    res.on('close', closed);
    next();
  };
}

function levelOf(req: Request, status: number, aborted: boolean): Level {
  if (status >= 500) return 'error';
  if (aborted) return 'warn';
  return req.originalUrl.startsWith('/sandbox/') ? 'debug' : 'info';
}

/** A set-password link's `token` (the web application's /set-password page) never reaches a log line. */
const withoutTokens = (url: string) => (url.includes('token=') ? url.replace(/([?&]token=)[^&#]*/g, '$1[redacted]') : url);
