import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface BuiltService {
  child: ChildProcess;
  pid: number;
  url: string;
  exited: Promise<number | null>;
}

/** Compiles src/ to dist/ as `npm run build` does; the compiler's output goes to stderr with the progress. */
export function buildService(): void {
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed (exit ${build.status ?? build.signal})`);
}

/**
 * Starts `node [nodeArgs] dist/src/main.js` and waits for the start-up banner's URL. Like the e2e tests'
 * startBuiltService, but with node flags: `--cpu-prof` is refused in NODE_OPTIONS.
 */
export async function startBuiltService(env: Record<string, string>, nodeArgs: string[] = []): Promise<BuiltService> {
  const child = spawn(process.execPath, [...nodeArgs, 'dist/src/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', SANDBOX_STATE_FILE: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`No start-up banner within 20 s; stderr: ${stderr}`)), 20_000);
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /running at (http:\/\/[\d.]+:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => reject(new Error(`The service exited with ${code}: ${stderr}`)));
  });
  return { child, pid: child.pid!, url, exited };
}

/**
 * A service for read benchmarks on a seeded SQLite file: the seed's key, no request budget in the way, and no jobs
 * (retention, polling, outbox) running during the measurement.
 */
export function readOnlyServiceEnv(databasePath: string, apiKey: string): Record<string, string> {
  return {
    DATABASE_URL: `sqlite:${databasePath}`,
    BOOTSTRAP_API_KEY: apiKey,
    LOG_LEVEL: 'warn',
    API_RATE_LIMIT_PER_MINUTE: '1000000',
    SCHEDULER_RUN_JOBS: 'false',
  };
}

/** SIGTERM for a graceful stop; SIGKILL if it has not exited within the timeout. */
export async function stopService(service: BuiltService, timeoutMs = 10_000): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  service.child.kill('SIGTERM');
  const timer = setTimeout(() => service.child.kill('SIGKILL'), timeoutMs);
  await service.exited;
  clearTimeout(timer);
}
