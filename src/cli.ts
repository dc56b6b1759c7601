import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './database.js';
import { AppError } from './errors.js';
import { AccountService } from './services/account.service.js';

const USAGE = `Usage: npm run --silent cli -- <command> [options]   (--help: this text)

  account create --name NAME [--json]     create an account and its first API key
  account list [--json]                   list accounts
  key create --account ID [--json]        create another API key for an account
  key list --account ID [--json]          list an account's keys (prefixes only)
  key revoke --key-id ID [--json]         revoke a key

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
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals.join(' ');
  if (values.help || command === 'help') return { json: { usage: USAGE }, text: USAGE };
  if (!command) throw new UsageError();
  const dataSource = await openDatabase(loadConfig().database);
  try {
    const accounts = new AccountService(dataSource);
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
      error instanceof UsageError ? `${error.message ? `${error.message}\n\n` : ''}${USAGE}`
      : error instanceof AppError || error instanceof ConfigError ? error.message
      : `failed: ${(error as Error).message}`;
    if (asJson && !(error instanceof UsageError)) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`${message}\n`);
    process.exitCode = error instanceof UsageError ? 64 : 1;
  },
);
