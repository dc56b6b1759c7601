import express, { Router, type Request, type RequestHandler } from 'express';
import type { RenderOptions } from 'altair-static';
import { pagePolicy } from '../http/security-headers.js';
import { KEY_FORM_HTML, KEY_PROMPT_SCRIPT } from './ide-key-prompt.js';

/** Where the offline IDE is served (README, docs). */
export const IDE_PATH = '/graphql/ide';

/** Altair's own hook for an init script in a separate request; ours asks for the key first (ide-key-prompt.ts). */
const KEY_PROMPT_FILE = 'key-prompt.js';

/**
 * What Altair's page loads: its scripts, styles (it sets inline ones), fonts and images from here, its script
 * sandbox in a frame from here, queries over HTTP and subscriptions over the socket to this server.
 */
const IDE_POLICY = pagePolicy({
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  // Express's request: helmet passes the one it is given.
  connectSrc: ["'self'", (req) => origin(req as Request).replace(/^http/, 'ws')],
  frameSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  baseUri: ["'self'"],
  formAction: ["'self'"],
});

/**
 * Altair, served entirely from the npm package (Apollo Sandbox at GET /graphql loads from a CDN). The API key, asked
 * for before Altair starts, is the `apiKey` variable of Altair's environment: headers and the subscription's
 * connection parameters use it.
 */
export function createIdeRouter(): Router {
  const router = Router();
  router.get(IDE_PATH, IDE_POLICY, async (req, res) => {
    if (!req.path.endsWith('/')) return res.redirect(301, `${IDE_PATH}/`);
    const { renderAltair } = await altair();
    res.type('html').setHeader('Cache-Control', 'no-store');
    res.send(idePage(renderAltair, altairOptions(req)));
  });
  router.get(`${IDE_PATH}/${KEY_PROMPT_FILE}`, (_req, res) => {
    res.type('js').setHeader('Cache-Control', 'no-store');
    res.send(KEY_PROMPT_SCRIPT);
  });
  let assets: Promise<RequestHandler> | undefined;
  router.use(IDE_PATH, (req, res, next) => {
    assets ??= altair().then(({ getDistDirectory, isSandboxFrame, SANDBOX_FRAME_CSP }) =>
      express.static(getDistDirectory(), {
        index: false,
        setHeaders: (headers, path) => {
          if (isSandboxFrame(path)) headers.setHeader('Content-Security-Policy', SANDBOX_FRAME_CSP);
        },
      }),
    );
    assets.then((serve) => serve(req, res, next), next);
  });
  return router;
}

const importAltair = () => import('altair-static');
type Altair = Awaited<ReturnType<typeof importAltair>>;
let loading: Promise<Altair> | undefined;
/** Altair's package (a 0.5 MB bundle, a tenth of a second of every start-up), loaded by the IDE's first request. */
const altair = (): Promise<Altair> => (loading ??= importAltair());

function altairOptions(req: Request): RenderOptions {
  return {
    endpointURL: `${origin(req)}/graphql`,
    subscriptionsEndpoint: `${origin(req).replace(/^http/, 'ws')}/graphql`,
    initialSubscriptionRequestHandlerId: 'graphql-ws',
    initialName: 'basewatch',
    initialQuery: 'query Viewer {\n  viewer {\n    id\n    name\n  }\n}\n',
    initialHeaders: { Authorization: 'Bearer {{apiKey}}' },
    initialSubscriptionsPayload: { authorization: 'Bearer {{apiKey}}' },
    initialEnvironments: { base: { title: 'basewatch', variables: { apiKey: '' } } },
    // A stored state would be merged over these options, its environment (an earlier key) included.
    preserveState: false,
    disableAccount: true,
    initialSettings: {
      'plugin.list': [],
      'alert.disableUpdateNotification': true,
      'alert.disableWarnings': true,
      // Its one banner offers a plugin fetched from outside.
      'banners.disable': true,
    },
  };
}

/** Altair's page with the key form in front of a hidden <app-root>, and the options for the script as JSON. */
function idePage(renderAltair: Altair['renderAltair'], options: RenderOptions): string {
  const json = JSON.stringify(options).replace(/</g, '\\u003c');
  const html = renderAltair({ baseURL: `${IDE_PATH}/`, serveInitialOptionsInSeperateRequest: KEY_PROMPT_FILE });
  return html.replace(
    '<app-root>',
    () => `${KEY_FORM_HTML}<script type="application/json" id="altair-options">${json}</script>\n<app-root hidden>`,
  );
}

/** This server as the browser reached it; a Host header that is not a plain host[:port] is not echoed into the page. */
function origin(req: Request): string {
  const host = req.get('host') ?? '';
  return /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? `${req.protocol}://${host}` : 'http://localhost';
}
