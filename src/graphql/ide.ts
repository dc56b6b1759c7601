import express, { Router, type Request } from 'express';
import { getDistDirectory, isSandboxFrame, renderAltair, SANDBOX_FRAME_CSP } from 'altair-static';

/** Where the offline IDE is served (README, docs). */
export const IDE_PATH = '/graphql/ide';

/**
 * Altair, served entirely from the npm package (Apollo Sandbox at GET /graphql loads from a CDN). The API key is the
 * `apiKey` variable of Altair's environment: headers and the subscription's connection parameters use it.
 */
export function createIdeRouter(): Router {
  const router = Router();
  router.get(IDE_PATH, (req, res) => {
    if (!req.path.endsWith('/')) return res.redirect(301, `${IDE_PATH}/`);
    res.type('html').setHeader('Cache-Control', 'no-store');
    res.send(
      renderAltair({
        baseURL: `${IDE_PATH}/`,
        endpointURL: `${origin(req)}/graphql`,
        subscriptionsEndpoint: `${origin(req).replace(/^http/, 'ws')}/graphql`,
        initialSubscriptionRequestHandlerId: 'graphql-ws',
        initialName: 'basewatch',
        initialQuery: 'query Viewer {\n  viewer {\n    id\n    name\n  }\n}\n',
        initialHeaders: { Authorization: 'Bearer {{apiKey}}' },
        initialSubscriptionsPayload: { authorization: 'Bearer {{apiKey}}' },
        initialEnvironments: { base: { title: 'basewatch', variables: { apiKey: '' } } },
        disableAccount: true,
        initialSettings: { 'plugin.list': [], 'alert.disableUpdateNotification': true, 'alert.disableWarnings': true },
      }),
    );
  });
  router.use(
    IDE_PATH,
    express.static(getDistDirectory(), {
      index: false,
      setHeaders: (res, path) => {
        if (isSandboxFrame(path)) res.setHeader('Content-Security-Policy', SANDBOX_FRAME_CSP);
      },
    }),
  );
  return router;
}

/** This server as the browser reached it; a Host header that is not a plain host[:port] is not echoed into the page. */
function origin(req: Request): string {
  const host = req.get('host') ?? '';
  return /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? `${req.protocol}://${host}` : 'http://localhost';
}
