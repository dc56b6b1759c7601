import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router } from 'express';
import { pagePolicy } from '../http/security-headers.js';

/**
 * Swagger UI's files, found without loading the package: its entry point evaluates the whole browser bundle (about
 * 0.4 s of every start-up) to export what a browser needs.
 */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>basewatch API</title>
  <link rel="stylesheet" href="./assets/swagger-ui.css">
</head>
<body>
  <div id="ui"></div>
  <script src="./assets/swagger-ui-bundle.js"></script>
  <script src="./init.js"></script>
</body>
</html>`;

/** In a file of its own, so that the page's policy allows scripts from this origin only. No online validator badge. */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: '../openapi.json', dom_id: '#ui', persistAuthorization: true, validatorUrl: null });\n`;

/** Swagger UI: its scripts and styles from here (it sets inline styles), the OpenAPI document and "Try it out" calls to here. */
const DOCS_POLICY = pagePolicy({
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
});

/** A readable page of the OpenAPI document, served entirely from npm assets (works offline). */
export function createDocsRouter(): Router {
  const router = Router();
  // The page's relative asset links need the trailing slash.
  router.get('/docs', DOCS_POLICY, (req, res) =>
    req.originalUrl.split('?')[0].endsWith('/') ? res.type('html').send(PAGE) : res.redirect(301, '/docs/'),
  );
  router.get('/docs/init.js', (_req, res) => res.type('js').send(INIT_SCRIPT));
  router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d' }));
  return router;
}
