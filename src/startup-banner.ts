import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { RunningServer } from './server.js';

/**
 * Tells a person how to get in. BOOTSTRAP_API_KEY is made sure of (never printed); on a database with no account
 * at all a demo account is created and its key printed once, on the terminal rather than in the structured log.
 */
export async function printAccessBanner(running: RunningServer, config: Config, logger: Logger): Promise<void> {
  const { accounts } = running.services;
  const lines = [`basewatch is running at ${running.url}  (API docs: ${running.url}/docs/)`];
  if (config.bootstrapApiKey) {
    const { account, created, revoked } = await accounts.ensureKey(config.bootstrapApiKey);
    if (revoked) logger.warn({ accountId: account.id }, 'BOOTSTRAP_API_KEY names a revoked key; it stays revoked');
    logger.info({ accountId: account.id, created }, 'bootstrap API key ready');
    lines.push('Authenticate with the key in BOOTSTRAP_API_KEY:');
    lines.push(`  curl -H "Authorization: Bearer $BOOTSTRAP_API_KEY" ${running.url}/usage/bases`);
  } else if ((await accounts.count()) === 0) {
    const { account, apiKey } = await accounts.create('demo');
    logger.info({ accountId: account.id }, 'created the demo account');
    lines.push('A demo account was created. Its API key is shown this once:');
    lines.push(`  ${apiKey}`);
    lines.push('Try it:');
    lines.push(`  curl -H "Authorization: Bearer ${apiKey}" ${running.url}/airtable/bases`);
  } else {
    lines.push('Create an API key with:  npm run --silent cli -- key list --account <id> --json / key create --account <id> --json');
  }
  if (config.upstream.mode === 'sandbox') {
    lines.push(`Upstream: the built-in sandbox at ${running.url}/sandbox/airtable (token: SANDBOX_TOKEN)`);
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
}
