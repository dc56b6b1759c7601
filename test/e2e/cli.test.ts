import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliScript } from '../support/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'basewatch-cli-'));
const env = { DATABASE_URL: `sqlite:${join(dir, 'cli.sqlite')}` };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cli', () => {
  it('creates an account with a key, adds, lists and revokes keys', async () => {
    const created = await runCli(['account', 'create', '--name', 'Ops team', '--json'], env);
    expect(created.code).toBe(0);
    const { account, apiKey } = JSON.parse(created.stdout);
    expect(account).toEqual({ id: expect.any(String), name: 'Ops team' });
    expect(apiKey).toMatch(/^sk_[0-9A-Za-z]{43}$/);

    const second = JSON.parse((await runCli(['key', 'create', '--account', account.id, '--json'], env)).stdout);
    expect(second.apiKey).toMatch(/^sk_/);
    expect(second.apiKey).not.toBe(apiKey);

    const listed = JSON.parse((await runCli(['key', 'list', '--account', account.id, '--json'], env)).stdout);
    expect(listed.keys).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(apiKey);
    expect(listed.keys.map((k: { prefix: string }) => k.prefix)).toEqual([apiKey.slice(0, 8), second.apiKey.slice(0, 8)]);

    const revoked = JSON.parse((await runCli(['key', 'revoke', '--key-id', second.key.id, '--json'], env)).stdout);
    expect(revoked.key.revokedAt).toMatch(/Z$/);

    const accounts = JSON.parse((await runCli(['account', 'list', '--json'], env)).stdout);
    expect(accounts.accounts).toContainEqual({ id: account.id, name: 'Ops team' });
  }, 60_000);

  it('runs as the README says (npm run cli, from the sources)', async () => {
    const created = await runCliScript(['account', 'create', '--name', 'From npm', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout).account).toEqual({ id: expect.any(String), name: 'From npm' });
  }, 60_000);

  it('prints its usage for --help, -h and help, and exits 0', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['account', 'create', '--help']]) {
      const help = await runCli(args, env);
      expect(help.code, args.join(' ')).toBe(0);
      expect(help.stdout, args.join(' ')).toContain('Usage: npm run --silent cli -- <command>');
    }
    const none = await runCli([], env);
    expect(none.code).toBe(64);
    expect(none.stderr).toContain('Usage:');
  }, 60_000);

  it('fails clearly on bad input', async () => {
    const missing = await runCli(['key', 'create', '--json'], env);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain('--account is required');
    const unknown = await runCli(['key', 'list', '--account', 'nope', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toEqual({ error: 'Account not found' });
  }, 60_000);
});
