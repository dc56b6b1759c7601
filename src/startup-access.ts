import { DEFAULT_SANDBOX_TOKEN, type Config } from './config.js';
import type { Logger } from './logger.js';
import type { AccountService } from './services/account.service.js';

/** How a person gets in after this start. */
export type StartupAccess =
  | { kind: 'bootstrap' }
  /** A demo account made on an empty database; its key exists only in this value and the banner. */
  | { kind: 'demo'; apiKey: string }
  | { kind: 'existing' };

/**
 * Runs before the first request is served: BOOTSTRAP_API_KEY is made sure of (CONTRACT §2), or, on a database with
 * no account at all, a demo account is created.
 */
export async function prepareAccess(accounts: AccountService, config: Config, logger: Logger): Promise<StartupAccess> {
  if (config.bootstrapApiKey) {
    const { account, created, revoked } = await accounts.ensureKey(config.bootstrapApiKey);
    if (revoked) logger.warn({ accountId: account.id }, 'BOOTSTRAP_API_KEY names a revoked key; it stays revoked');
    logger.info({ accountId: account.id, created }, 'bootstrap API key ready');
    return { kind: 'bootstrap' };
  }
  if ((await accounts.count()) > 0) return { kind: 'existing' };
  const { account, apiKey } = await accounts.create('demo');
  logger.info({ accountId: account.id }, 'created the demo account');
  return { kind: 'demo', apiKey };
}

/** The start-up banner, on the terminal rather than in the structured log (it may carry the demo key, once). */
export function accessBanner(url: string, access: StartupAccess, sandboxToken: string | undefined): string {
  const lines = [`basewatch is running at ${url}  (API docs: ${url}/docs/)`];
  if (access.kind === 'bootstrap') {
    lines.push('Authenticate with the key in BOOTSTRAP_API_KEY:');
    lines.push(`  curl -H "Authorization: Bearer $BOOTSTRAP_API_KEY" ${url}/usage/bases`);
  } else if (access.kind === 'demo') {
    lines.push('A demo account was created. Its API key is shown this once:');
    lines.push(`  ${access.apiKey}`);
    lines.push('Try it:');
    lines.push(`  curl -H "Authorization: Bearer ${access.apiKey}" ${url}/airtable/bases`);
  } else {
    lines.push('Accounts exist already. Set BOOTSTRAP_API_KEY, or make a key with the CLI:');
    lines.push('  npm run --silent cli -- account list --json');
    lines.push('  npm run --silent cli -- key create --account <id> --json');
  }
  lines.push(`GraphQL: ${url}/graphql (offline IDE: ${url}/graphql/ide/)`);
  if (sandboxToken !== undefined) {
    // A token of the operator's own choosing is not echoed; the documented default is.
    const token = sandboxToken === DEFAULT_SANDBOX_TOKEN ? sandboxToken : 'the value of SANDBOX_TOKEN';
    lines.push(`Upstream: the built-in sandbox at ${url}/sandbox/airtable (Authorization: Bearer ${token})`);
  }
  return `\n${lines.join('\n')}\n\n`;
}
