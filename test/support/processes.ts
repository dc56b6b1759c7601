import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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
    const timer = setTimeout(() => reject(new Error(`no start-up banner; stderr: ${stderr}`)), 60_000);
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

/** Starts the BUILT service (`main`: see built-service.ts) and waits for its start-up banner. */
export function startBuiltService(env: Record<string, string>, main: string): Promise<ServiceProcess> {
  return startWithBanner(process.execPath, [main], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env });
}

export interface FinishedProcess {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the BUILT service expecting it to end by itself (a refused start), and waits for that. */
export function runBuiltServiceToExit(env: Record<string, string>, main: string): Promise<FinishedProcess> {
  return runToExit(process.execPath, [main], { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env });
}

/** Runs a command to its end, with its exit code and output. `env` is the whole environment besides PATH. */
export function runToExit(command: string, args: string[], env: Record<string, string>): Promise<FinishedProcess> {
  const child = spawn(command, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** The process (Linux /proc) with a TCP socket bound to this local port on loopback, if any. */
export function processOfLocalPort(port: number): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`)) inodes.add(fields[9]!);
    }
  }
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match && inodes.has(match[1]!)) return Number(pid);
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return undefined;
}

/** Whether `pid` is `root` or runs below it. */
export function isWithin(pid: number, root: number): boolean {
  for (let at = pid; at > 1; ) {
    if (at === root) return true;
    try {
      const stat = readFileSync(`/proc/${at}/stat`, 'utf8');
      at = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return false;
    }
  }
  return false;
}
