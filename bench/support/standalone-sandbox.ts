import type { ChildProcess } from 'node:child_process';
import { startWithBanner } from '../../test/support/processes.js';

export interface StandaloneSandbox {
  url: string;
  token: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** A call to its control API (`/_control/…`: faults, stats, large bases, a base's summary). */
  control<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/**
 * The sandbox in its own process (`npm run sandbox`'s script), as a real upstream is reached: over the network, on
 * an event loop of its own. The in-process sandbox shares the service's loop, so a long synchronous turn of the
 * service (a page written to a large SQLite file) delays its view of arrivals.
 */
export async function startStandaloneSandbox(token: string): Promise<StandaloneSandbox> {
  const { child, url, exited } = await startWithBanner(process.execPath, ['--import', 'tsx', 'src/sandbox/standalone.ts'], {
    PORT: '0',
    SANDBOX_TOKEN: token,
    SANDBOX_STATE_FILE: 'off',
  });
  const control = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/_control/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  return { url, token, child, exited, control, stop };
}
