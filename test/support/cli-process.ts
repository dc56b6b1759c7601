import { dirname, join } from 'node:path';
import { builtServiceMain } from './built-service.js';
import { runToExit, type FinishedProcess } from './processes.js';

/**
 * Runs the CLI as built (`node …/src/cli.js`, from the build the process tier shares: built-service.ts), the program
 * that `npm run cli` runs from its sources, returning its exit code and output. A run takes a fraction of a second
 * where `npm run cli` compiles the sources each time.
 */
export async function runCli(args: string[], env: Record<string, string>): Promise<FinishedProcess> {
  const cli = join(dirname(await builtServiceMain()), 'cli.js');
  return runToExit(process.execPath, [cli, ...args], withHome(env));
}

/** Runs `npm run --silent cli -- …` as a person types it. */
export function runCliScript(args: string[], env: Record<string, string>): Promise<FinishedProcess> {
  return runToExit('npm', ['run', '--silent', 'cli', '--', ...args], withHome(env));
}

const withHome = (env: Record<string, string>) => ({ HOME: process.env.HOME ?? '', ...env });
