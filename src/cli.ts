import 'reflect-metadata';
import { parseArgs } from 'node:util';
import type { DataSource } from 'typeorm';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './database.js';
import { AppError } from './errors.js';
import { checkKeyFingerprint } from './key-fingerprint.js';
import { createLogger } from './logger.js';
import { toConnectionResponse } from './services/connections/connection-response.js';
import { loadSecretKey } from './secret-key.js';
import { AccountService } from './services/account.service.js';
import { ConnectionService } from './services/connections/connection.service.js';
import { SecretBox } from './services/secret-box.js';
import { Email } from './services/users/user.input.js';
import { SessionService } from './services/users/session.service.js';
import { userOptions } from './services/users/user-options.js';
import { UserService } from './services/users/user.service.js';
import { UpstreamClient } from './upstream/client.js';
import type { TokenSource } from './upstream/types.js';

const USAGE = `Usage: npm run --silent cli -- <command> [options]   (--help: this text)

  account create --name NAME [--json]     create an account and its first API key
  account list [--json]                   list accounts
  key create --account ID [--json]        create another API key for an account
  key list --account ID [--json]          list an account's keys (prefixes only)
  key revoke --key-id ID [--json]         revoke a key
  connection show --account ID [--json]   the account's upstream connection (never its token)
  connection set-token --account ID --token PAT [--json]
                                          connect a personal access token (checked with the upstream first;
                                          in sandbox mode the server must be running, at PORT)
  connection remove --account ID [--json] forget the account's upstream connection
  user create --email E [--account ID] [--json]
                                          create the web application's user owning account ID (or a new
                                          account named after the e-mail) and print a one-time set-password
                                          link (PUBLIC_URL/set-password?token=…, valid 24 hours)

Works on the database named by DATABASE_URL (default sqlite:data/basewatch.sqlite).`;

type Output = { json: unknown; text: string };

async function run(argv: string[]): Promise<Output> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      'key-id': { type: 'string' },
      token: { type: 'string' },
      email: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ');
  if (values.help || command === 'help') return { json: { usage: USAGE }, text: USAGE };
  if (!command) throw new UsageError();
  const config = loadConfig();
  const dataSource = await openDatabase(config.database);
  try {
    const accounts = new AccountService(dataSource, config.quotas);
    const connections = () => connectionService(config, dataSource);
    switch (command) {
      case 'account create': {
        const result = await accounts.create(required(values.name, '--name'));
        return { json: result, text: `account ${result.account.id} (${result.account.name})\napi key (shown once): ${result.apiKey}` };
      }
      case 'account list': {
        const list = await accounts.list();
        return { json: { accounts: list }, text: list.map((a) => `${a.id}  ${a.name}`).join('\n') };
      }
      case 'key create': {
        const { key, apiKey } = await accounts.createKey(required(values.account, '--account'));
        return { json: { key: keyJson(key), apiKey }, text: `key ${key.id}\napi key (shown once): ${apiKey}` };
      }
      case 'key list': {
        const keys = (await accounts.listKeys(required(values.account, '--account'))).map(keyJson);
        return { json: { keys }, text: keys.map((k) => `${k.id}  ${k.prefix}…  ${k.revokedAt ? 'revoked' : 'active'}`).join('\n') };
      }
      case 'key revoke': {
        const key = keyJson(await accounts.revokeKey(required(values['key-id'], '--key-id')));
        return { json: { key }, text: `key ${key.id} revoked at ${key.revokedAt}` };
      }
      case 'connection show': {
        const account = await accounts.require(required(values.account, '--account'));
        const connection = await (await connections()).get(account.id);
        const json = connection && toConnectionResponse(connection);
        return { json: { connection: json }, text: json ? connectionText(json) : 'no upstream connection' };
      }
      case 'connection set-token': {
        const account = await accounts.require(required(values.account, '--account'));
        const connection = toConnectionResponse(await (await connections()).setToken(account.id, required(values.token, '--token')));
        return { json: { connection }, text: connectionText(connection) };
      }
      case 'connection remove': {
        const account = await accounts.require(required(values.account, '--account'));
        await (await connections()).remove(account.id);
        return { json: { removed: true }, text: `upstream connection of ${account.id} removed` };
      }
      case 'user create': {
        const email = Email.safeParse(required(values.email, '--email'));
        if (!email.success) throw new UsageError('--email must be an e-mail address');
        const users = new UserService(dataSource, new SessionService(dataSource), userOptions(config));
        const created = await users.createByOperator(email.data, values.account);
        const json = { ...created, expiresAt: created.expiresAt.toISOString() };
        return {
          json,
          text: `user ${json.user.id} (${json.user.email}) owns account ${json.account.id} (${json.account.name})\nset-password link (once, until ${json.expiresAt}): ${json.setPasswordUrl}`,
        };
      }
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } finally {
    await dataSource.destroy();
  }
}

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

/**
 * The same service as the server's, with a client that reaches the configured upstream (the sandbox through the
 * server), and the deployment's key (checked as the server checks it).
 */
async function connectionService(config: Config, dataSource: DataSource): Promise<ConnectionService> {
  const logger = createLogger('silent');
  const secretKey = loadSecretKey(config, logger);
  await checkKeyFingerprint(dataSource, secretKey);
  const baseUrl = config.upstream.apiUrl ?? `http://127.0.0.1:${config.port}/sandbox/airtable`;
  const clientFor = (token: string | TokenSource) => new UpstreamClient({ baseUrl, token, maxRetries: 1, timeoutMs: 10_000 });
  return new ConnectionService(dataSource, new SecretBox(secretKey), clientFor, logger);
}

const connectionText = (c: ReturnType<typeof toConnectionResponse>) =>
  `${c.kind} connection as ${c.upstreamUserId}${c.email ? ` (${c.email})` : ''}, ${c.status}, since ${c.connectedAt}` +
  (c.lastError ? `\nlast error: ${c.lastError}` : '');

const keyJson = (key: { id: string; accountId: string; prefix: string; createdAt: Date; revokedAt: Date | null }) => ({
  id: key.id,
  accountId: key.accountId,
  prefix: key.prefix,
  createdAt: key.createdAt.toISOString(),
  revokedAt: key.revokedAt?.toISOString() ?? null,
});

const argv = process.argv.slice(2);
const asJson = argv.includes('--json');
run(argv).then(
  (output) => {
    process.stdout.write(`${asJson ? JSON.stringify(output.json) : output.text}\n`);
  },
  (error: unknown) => {
    const message =
      error instanceof UsageError
        ? `${error.message ? `${error.message}\n\n` : ''}${USAGE}`
        : error instanceof AppError || error instanceof ConfigError
          ? error.message
          : `failed: ${(error as Error).message}`;
    if (asJson && !(error instanceof UsageError)) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`${message}\n`);
    process.exitCode = error instanceof UsageError ? 64 : 1;
  },
);
