import type { ApolloServerPlugin, LandingPage } from '@apollo/server';
import {
  ApolloServerPluginLandingPageLocalDefault,
  type ApolloServerPluginLandingPageLocalDefaultOptions,
} from '@apollo/server/plugin/landingPage/default';
import { IDE_PATH } from './ide.js';

const OFFLINE_HINT =
  `<p>Offline? Open the <a href="${IDE_PATH}/">GraphQL IDE at ${IDE_PATH}/</a>: ` +
  'it is served by this service, works offline and asks for your API key.</p>';

/**
 * Apollo's local landing page (Sandbox, from Apollo's CDN), with a link to the offline IDE in the fallback shown
 * while Sandbox is not there. Apollo's page is kept as rendered, nonce and Content-Security-Policy included.
 */
export function landingPageWithOfflineIde(options: ApolloServerPluginLandingPageLocalDefaultOptions): ApolloServerPlugin {
  const apollo = ApolloServerPluginLandingPageLocalDefault(options);
  return {
    async serverWillStart(service) {
      const listener = await apollo.serverWillStart?.(service);
      const render = listener?.renderLandingPage;
      if (!listener || !render) return listener;
      return {
        ...listener,
        renderLandingPage: async (): Promise<LandingPage> => {
          const { html } = await render.call(listener);
          return { html: typeof html === 'string' ? withOfflineHint(html) : async () => withOfflineHint(await html()) };
        },
      };
    },
  };
}

/** The hint goes at the end of Apollo's `<div class="fallback">`; a page without one is left as it is. */
function withOfflineHint(html: string): string {
  const fallback = html.indexOf('<div class="fallback">');
  const end = fallback < 0 ? -1 : html.indexOf('</div>', fallback);
  if (end < 0) return html;
  const nonce = /nonce="?([0-9a-f]+)/.exec(html)?.[1];
  // Offline, the empty (transparent, full-page) Sandbox container would sit over the fallback and take its clicks.
  const style = nonce ? `\n<style nonce="${nonce}">#embeddableSandbox:empty { pointer-events: none; }</style>` : '';
  const close = end + '</div>'.length;
  return `${html.slice(0, end)}  ${OFFLINE_HINT}\n</div>${style}${html.slice(close)}`;
}
