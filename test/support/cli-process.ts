import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { builtServiceMain } from './built-service.js';
import { ROOT } from './processes.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI as built (`node …/src/cli.js`, from the build the process tier shares: built-service.ts), the program
 * that `npm run cli` runs from its sources, returning its exit code and output. A run takes a fraction of a second
 * where `npm run cli` compiles the sources each time.
 */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const cli = join(dirname(await builtServiceMain()), 'cli.js');
  return runToExit(process.execPath, [cli, ...args], env);
}

/** Runs `npm run --silent cli -- …` as a person types it. */
export function runCliScript(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runToExit('npm', ['run', '--silent', 'cli', '--', ...args], env);
}

function runToExit(command: string, args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
