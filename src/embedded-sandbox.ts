import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { OAUTH_CALLBACK_PATH } from './http/oauth-callback-path.js';
import { createSandbox, type Sandbox } from './sandbox/index.js';

/**
 * The built-in sandbox of sandbox mode, with its state file and the service's own OAuth integration (so that accounts
 * can connect sandbox users), returning to `publicUrl`. One per deployment on one host: the process itself, or under
 * WEB_CONCURRENCY the primary (web-concurrency/primary.ts).
 */
export function createEmbeddedSandbox(config: Config, publicUrl: string, logger: Logger): Sandbox {
  return createSandbox({
    token: config.sandbox.token,
    demo: { scale: config.sandbox.demoScale },
    stateFile: config.sandbox.stateFile,
    logger,
    oauth: config.oauth.clientId
      ? {
          clients: [
            {
              clientId: config.oauth.clientId,
              clientSecret: config.oauth.clientSecret,
              redirectUris: [`${publicUrl}${OAUTH_CALLBACK_PATH}`],
            },
          ],
        }
      : undefined,
  });
}
