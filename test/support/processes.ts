import { spawn, type ChildProcess } from 'node:child_process';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process printed on stdout so far. */
  output(): string;
  exited: Promise<number | null>;
}

/**
 * Starts a process that prints `running at http://…` once it listens (the service, the standalone sandbox) and waits
 * for that URL. `env` is the whole environment besides PATH.
 */
export async function startWithBanner(command: string, args: string[], env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(command, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up banner; stderr: ${stderr}`)), 20_000);
    const check = () => {
      const match = /running at (http:\/\/[\d.]+:\d+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  return { child, url, output: () => stdout, exited };
}

/** Starts the BUILT service (`node dist/src/main.js`, or `main` of another build) and waits for its start-up banner. */
export function startBuiltService(env: Record<string, string>, main = 'dist/src/main.js'): Promise<ServiceProcess> {
  return startWithBanner(process.execPath, [main], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env });
}

/** Runs `npm run --silent cli -- …` as a person would, returning its exit code and output. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'cli', '--', ...args], {
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
