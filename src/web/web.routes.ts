import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError } from '../errors.js';
import { webBuildDir } from './web-files.js';

/**
 * First path segments the web application never answers for: the APIs and their pages keep their own 404s (a
 * browser opening an unknown /usage/… path gets the API's JSON, not the application).
 */
const API_SEGMENTS = new Set([
  'webhooks',
  'usage',
  'airtable',
  'monitoring-config',
  'upstream',
  'connection',
  'oauth',
  'auth',
  'healthz',
  'readyz',
  'metrics',
  'openapi.json',
  'graphql',
  'docs',
  'sandbox',
  'admin',
  'assets',
]);

const PAGE_HEADERS = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

/**
 * The bundle's files (content-hashed names, so cached for a year), mounted before authentication: no session lookup.
 * The build writes each one gzipped beside it (`.gz`), sent to clients that accept gzip.
 */
export function createWebAssetsRouter(dir = webBuildDir()): Router {
  const router = Router();
  const assets = join(dir, 'assets');
  router.get('/assets/:file', (req, res, next) => {
    const { file } = req.params;
    if (!/^[\w-]+\.(js|css)$/.test(file) || !req.acceptsEncodings('gzip')) return next();
    const zipped = join(assets, `${file}.gz`);
    if (!existsSync(zipped)) return next();
    res.set({ 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' }).type(extname(file));
    res.sendFile(zipped, { maxAge: '365d', immutable: true });
  });
  router.use(
    '/assets',
    express.static(assets, {
      index: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: (res) => res.setHeader('Vary', 'Accept-Encoding'),
    }),
  );
  return router;
}

/** The page's marker of a signed-in browser: the application then asks for its session (no 401 when there is none). */
const SIGNED_OUT_MARK = '<meta name="basewatch-session" content="none">';
const SIGNED_IN_MARK = '<meta name="basewatch-session" content="active">';
/** Which upstream the deployment talks to: links to airtable.com lead somewhere only with the real one. */
const UPSTREAM_MARK = '<meta name="basewatch-upstream" content="airtable">';

/**
 * The application's page for every GET that a browser sends for a page (Accept names text/html) and that no route
 * answered: `/`, `/settings`, `/bases/…`, the CLI's `/set-password?token=…`. Mounted after every API route, so after
 * authentication: the page says whether the request came with a live session (a flag, nothing of the session).
 */
export function createWebPageRouter(dir = webBuildDir(), { upstream = 'airtable' }: { upstream?: 'sandbox' | 'airtable' } = {}): Router {
  const router = Router();
  let pages: { signedOut: Buffer; signedIn: Buffer } | undefined;
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !wantsPage(req)) return next();
    pages ??= await readFile(join(dir, 'index.html'), 'utf8').then(
      (built) => {
        const html = built.replace(UPSTREAM_MARK, `<meta name="basewatch-upstream" content="${upstream}">`);
        // A signed-in browser also gets the chunks behind sign-in preloaded (the build lists them in a comment).
        const signedIn = html.replace(SIGNED_OUT_MARK, SIGNED_IN_MARK).replace(/<!--signed-in (.*?) signed-in-->/, '$1');
        return { signedOut: Buffer.from(html), signedIn: Buffer.from(signedIn) };
      },
      () => undefined,
    );
    if (!pages) return next(new AppError('unavailable', 'The web application is not built: run `npm run build`'));
    const signedIn = res.locals.authMethod === 'session';
    res
      .set(PAGE_HEADERS)
      .type('html')
      .send(signedIn ? pages.signedIn : pages.signedOut);
  });
  return router;
}

function wantsPage(req: Request): boolean {
  const segment = req.path.split('/')[1] ?? '';
  return !API_SEGMENTS.has(segment) && (req.headers.accept ?? '').includes('text/html');
}
