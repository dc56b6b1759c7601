import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../src/errors.js';
import { createWebPageRouter } from '../../src/web/web.routes.js';

describe('the web page router without a build', () => {
  it('answers a browser with `unavailable` saying to build, and leaves other requests alone', async () => {
    const app = express()
      .use(createWebPageRouter('/nonexistent/dist/web'))
      .use((_req: Request, res: Response) => void res.status(404).json({ code: 'not_found' }))
      .use(
        (error: AppError, _req: Request, res: Response, _next: NextFunction) =>
          void res.status(503).json({ code: error.code, message: error.message }),
      );
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${url}/settings`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(503);
      expect(await page.json()).toEqual({ code: 'unavailable', message: 'The web application is not built: run `npm run build`' });
      expect((await fetch(`${url}/settings`, { headers: { accept: 'application/json' } })).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
