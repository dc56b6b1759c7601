import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadRequest, LoadRun } from './load-run.js';
import { processCpuTimes, type CpuTimes } from './process-stats.js';

const CLIENT_SCRIPT = fileURLToPath(new URL('./closed-loop-client.ts', import.meta.url));

export interface ClosedLoopOptions extends LoadRequest {
  /** Seconds on the same connections before the measured window. */
  warmUpSeconds: number;
  /** Called when the measured window opens. */
  onMeasuring?: () => void;
}

/** Runs closed-loop-client.ts in its own process (so it has its own event loop) and reads its one-line report. */
export async function runClosedLoop(options: ClosedLoopOptions): Promise<LoadRun> {
  if (!options.paths) return runClient(options, '');
  // Thousands of paths are too long for the environment: the client reads them from a file.
  const dir = mkdtempSync(join(tmpdir(), 'basewatch-load-paths-'));
  try {
    const file = join(dir, 'paths.json');
    writeFileSync(file, JSON.stringify(options.paths));
    return await runClient(options, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function runClient(options: ClosedLoopOptions, pathsFile: string): Promise<LoadRun> {
  const args = [
    '--import',
    'tsx',
    CLIENT_SCRIPT,
    options.url,
    String(options.connections),
    String(options.warmUpSeconds),
    String(options.seconds),
  ];
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      LOAD_AUTHORIZATION: options.authorization,
      LOAD_ACCEPT_ENCODING: options.acceptEncoding,
      LOAD_BODY: options.body ?? '',
      LOAD_PATHS_FILE: pathsFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let clientAtStart: CpuTimes | undefined;
  let clientCpu: CpuTimes = { userMs: 0, systemMs: 0 };
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    if (clientAtStart === undefined && stdout.includes('CLOSED_LOOP_MEASURING')) {
      clientAtStart = processCpuTimes(child.pid!) ?? { userMs: 0, systemMs: 0 };
      options.onMeasuring?.();
    }
    if (stdout.includes('CLOSED_LOOP_RESULT')) {
      const now = processCpuTimes(child.pid!);
      if (now && clientAtStart) clientCpu = { userMs: now.userMs - clientAtStart.userMs, systemMs: now.systemMs - clientAtStart.systemMs };
    }
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = /^CLOSED_LOOP_RESULT (.+)$/m.exec(stdout);
      if (code !== 0 || !line) return reject(new Error(`the load client exited with ${code}: ${stderr || stdout}`));
      resolve({ ...(JSON.parse(line[1]) as Omit<LoadRun, 'clientCpu'>), clientCpu });
    });
  });
}
