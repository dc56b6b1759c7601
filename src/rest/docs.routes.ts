import express, { Router } from 'express';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

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
  <script>
    window.ui = SwaggerUIBundle({ url: '../openapi.json', dom_id: '#ui', persistAuthorization: true });
  </script>
</body>
</html>`;

/** A readable page of the OpenAPI document, served entirely from npm assets (works offline). */
export function createDocsRouter(): Router {
  const router = Router();
  // The page's relative asset links need the trailing slash.
  router.get('/docs', (req, res) =>
    req.originalUrl.split('?')[0].endsWith('/') ? res.type('html').send(PAGE) : res.redirect(301, '/docs/'),
  );
  router.use('/docs/assets', express.static(getAbsoluteFSPath(), { index: false, maxAge: '1d' }));
  return router;
}
