import { request } from 'node:http';
import type { Request, Response } from 'express';

/**
 * A worker's /sandbox/airtable under WEB_CONCURRENCY: the sandbox lives in the primary (one store for every worker),
 * so its public routes (the API, the OAuth pages, the control API) are passed to the primary's loopback port as they came.
 */
export function sandboxProxy(target: string) {
  const base = new URL(target);
  return (req: Request, res: Response) => {
    const upstream = request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: `${base.pathname}${req.url}`,
        headers: { ...req.headers, host: base.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.status(502).json({ error: { type: 'SANDBOX_UNAVAILABLE', message: 'The sandbox did not answer' } });
      else res.destroy();
    });
    req.pipe(upstream);
  };
}
