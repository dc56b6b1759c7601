import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../errors.js';
import { webBuildDir } from './web-files.js';

/**
 * First path segments the web application never answers for: the APIs and their pages keep their own 404s (a
 * browser opening an unknown /usage/… path gets the API's JSON, not the application).
 */
const API_SEGMENTS = new Set([
  'webhooks', 'usage', 'airtable', 'monitoring-config', 'upstream', 'connection', 'oauth', 'auth', 'healthz', 'readyz',
  'openapi.json', 'graphql', 'docs', 'sandbox', 'admin', 'assets',
]);

const PAGE_HEADERS = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

/** The bundle's files (content-hashed names, so cached for a year), mounted before authentication: no session lookup. */
export function createWebAssetsRouter(dir = webBuildDir()): Router {
  const router = Router();
  router.use('/assets', express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d' }));
  return router;
}

/**
 * The application's page for every GET that a browser sends for a page (Accept names text/html) and that no route
 * answered: `/`, `/settings`, `/bases/…`, the CLI's `/set-password?token=…`. Mounted after every API route.
 */
export function createWebPageRouter(dir = webBuildDir()): Router {
  const router = Router();
  let page: Buffer | undefined;
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !wantsPage(req)) return next();
    page ??= await readFile(join(dir, 'index.html')).catch(() => undefined);
    if (!page) return next(new AppError('unavailable', 'The web application is not built: run `npm run build`'));
    res.set(PAGE_HEADERS).type('html').send(page);
  });
  return router;
}

function wantsPage(req: Request): boolean {
  const segment = req.path.split('/')[1] ?? '';
  return !API_SEGMENTS.has(segment) && (req.headers.accept ?? '').includes('text/html');
}
