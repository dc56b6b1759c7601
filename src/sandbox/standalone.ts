import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createSandbox } from './index.js';

/**
 * `npm run sandbox`: the emulator alone, at the root of its own port (`/v0/…`, `/_control/…`, the OAuth pages), for
 * replicas to share (AIRTABLE_API_URL=http://127.0.0.1:<port>, AIRTABLE_TOKEN=<SANDBOX_TOKEN>). It reads its own few
 * variables: the sandbox depends on nothing of the service.
 */
const DEFAULT_PORT = 3100;
const DEFAULT_TOKEN = 'sandbox-token';
const DEFAULT_STATE_FILE = 'data/sandbox-standalone-state.json';

interface StandaloneSettings {
  port: number;
  host: string;
  token: string;
  demoScale: number;
  stateFile: string | undefined;
}

function readSettings(env: NodeJS.ProcessEnv): StandaloneSettings {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) problems.push(`${name} must be an integer from ${min} to ${max}`);
    return value;
  };
  const token = env.SANDBOX_TOKEN || DEFAULT_TOKEN;
  if (token.length < 8) problems.push('SANDBOX_TOKEN must have at least 8 characters');
  const settings = {
    port: integer('PORT', DEFAULT_PORT, 0, 65_535),
    host: env.HOST || '127.0.0.1',
    token,
    demoScale: integer('SANDBOX_DEMO_SCALE', 1, 0, 10_000),
    // As in the embedded mode: `off` or empty keeps the state in memory only.
    stateFile:
      env.SANDBOX_STATE_FILE === undefined
        ? DEFAULT_STATE_FILE
        : ['', 'off'].includes(env.SANDBOX_STATE_FILE)
          ? undefined
          : env.SANDBOX_STATE_FILE,
  };
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return settings;
}

async function main(): Promise<void> {
  const settings = readSettings(process.env);
  const sandbox = createSandbox({ token: settings.token, demo: { scale: settings.demoScale }, stateFile: settings.stateFile });
  const server = createServer(express().disable('x-powered-by').use(sandbox.router));
  await new Promise<void>((resolve) => server.listen(settings.port, settings.host, resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${settings.host}:${port}`;
  process.stdout.write(
    `basewatch sandbox running at ${url}  (Authorization: Bearer ${settings.token === DEFAULT_TOKEN ? DEFAULT_TOKEN : '<SANDBOX_TOKEN>'})\n` +
      `Point the service at it: AIRTABLE_API_URL=${url} AIRTABLE_TOKEN=<SANDBOX_TOKEN>\n` +
      `State: ${settings.stateFile ?? 'memory only'}\n`,
  );
  const stop = () => {
    server.close();
    server.closeAllConnections();
    // Writes the state file when changes are pending.
    sandbox.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sandbox failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
