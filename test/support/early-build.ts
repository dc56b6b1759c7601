import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './processes.js';

/**
 * Vitest's global setup: a whole run (no file named on the command line) starts the build that the process tier's
 * files share (built-service.ts) in a child process at once, while the unit tier runs; the process files find it done,
 * or wait for it on the build's own lock as before. A run of chosen files builds only when one of them needs it.
 */
export default function setup(): (() => void) | undefined {
  const named = process.argv.slice(2).filter((arg) => !arg.startsWith('-') && arg !== 'run');
  // Every project runs the global setup: the first starts the build.
  if (named.length > 0 || process.env.BASEWATCH_EARLY_BUILD) return undefined;
  process.env.BASEWATCH_EARLY_BUILD = 'started';
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/support/build-service.ts')], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  return () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
}
