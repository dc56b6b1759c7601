import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadRequest, LoadRun } from './load-run.js';
import { processCpuTimes, type CpuTimes } from './process-stats.js';

const REPORT_SCRIPT = fileURLToPath(new URL('./wrk-report.lua', import.meta.url));

let available: boolean | undefined;

/** True when a `wrk` binary is on the PATH (Debian/Ubuntu: `apt-get install wrk`). */
export function wrkAvailable(): boolean {
  available ??= spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
  return available;
}

/** One closed-loop wrk run on a single thread (the server needs the other core). */
export function runWrk(options: LoadRequest): Promise<LoadRun> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--timeout', '10s', '-s', REPORT_SCRIPT, options.url];
  const child = spawn('wrk', args, {
    env: {
      ...process.env,
      WRK_AUTHORIZATION: options.authorization,
      WRK_ACCEPT_ENCODING: options.acceptEncoding,
      WRK_BODY: options.body ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let clientCpu: CpuTimes = { userMs: 0, systemMs: 0 };
  // /proc/<pid> is gone once wrk exits, so its CPU time is read until then; the last 100 ms are its report.
  const sample = () => (clientCpu = processCpuTimes(child.pid!) ?? clientCpu);
  const sampler = setInterval(sample, 100);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      clearInterval(sampler);
      const line = /^WRK_RESULT (.+)$/m.exec(stdout);
      if (code !== 0 || !line) return reject(new Error(`wrk exited with ${code}: ${stderr || stdout}`));
      const r = JSON.parse(line[1]) as Record<
        'requests' | 'durationUs' | 'bytes' | 'errors' | 'non2xx' | 'p50' | 'p90' | 'p99' | 'max',
        number
      >;
      resolve({
        p50: r.p50 / 1000,
        p90: r.p90 / 1000,
        p99: r.p99 / 1000,
        max: r.max / 1000,
        completed: r.requests,
        durationSeconds: r.durationUs / 1e6,
        bytes: r.bytes,
        errors: r.errors,
        non2xx: r.non2xx,
        clientCpu,
      });
    });
  });
}
