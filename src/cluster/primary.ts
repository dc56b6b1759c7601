import cluster, { type Worker } from 'node:cluster';
import { createServer } from 'node:net';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { startServer, type RunningServer } from '../server.js';
import { accessBanner } from '../startup-access.js';
import { PrimaryChannel } from './ipc.js';

export const OWNER_URL_VARIABLE = 'BASEWATCH_CLUSTER_OWNER_URL';
export const WORKER_LISTENING = 'worker.listening';

/** How long a worker that crashed at once waits before it is replaced again, so a broken start does not spin. */
const RESTART_BACKOFF_MS = 1_000;

/**
 * WEB_CONCURRENCY > 1: this process owns what must be one per host (the database's migrations, the sandbox and its
 * state, the scheduler and its jobs, and, without Redis, the shared limits, budgets and events) and serves it on a
 * loopback port of its own; N workers (node:cluster) serve the public port. A worker that dies is replaced; SIGTERM
 * drains the workers, then stops the owner.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<{ stop(): Promise<void> }> {
  const port = config.port === 0 ? await freePort(config.host) : config.port;
  const loopback = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const publicUrl = config.publicUrl ?? `http://${loopback}:${port}`;
  const channel = new PrimaryChannel();
  const owner: RunningServer = await startServer({ ...config, port: 0, host: '127.0.0.1', publicUrl }, logger, {
    cluster: { role: 'primary', channel },
  });

  const env = { PORT: String(port), PUBLIC_URL: config.publicUrl ?? '', [OWNER_URL_VARIABLE]: owner.url };
  let stopping = false;
  const listening = new Set<number>();
  const fork = () => cluster.fork(env);
  cluster.on('message', (worker: Worker, message: unknown) => {
    if ((message as { kind?: string } | undefined)?.kind === WORKER_LISTENING) listening.add(worker.id);
  });
  cluster.on('exit', (worker, code, signal) => {
    const wasListening = listening.delete(worker.id);
    if (stopping) return;
    logger.warn({ worker: worker.id, pid: worker.process.pid, code, signal }, 'worker exited; starting another');
    setTimeout(fork, wasListening ? 0 : RESTART_BACKOFF_MS).unref();
  });
  for (let i = 0; i < config.webConcurrency; i++) fork();
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (listening.size < config.webConcurrency) return;
      clearInterval(check);
      resolve();
    }, 20);
  });
  logger.info({ url: publicUrl, workers: config.webConcurrency, owner: owner.url }, 'basewatch is listening');
  process.stdout.write(accessBanner(publicUrl, owner.access, config.upstream.mode === 'sandbox' ? config.sandbox.token : undefined));

  return {
    stop: async () => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
      const exited = workers.map((worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))));
      for (const worker of workers) worker.process.kill('SIGTERM');
      // Each drains within its own deadline; past it, with some slack, it is killed.
      const deadline = config.shutdownDrainMs + config.shutdownTimeoutMs + 5_000;
      const late = setTimeout(() => {
        for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
      }, deadline);
      await Promise.all(exited);
      clearTimeout(late);
      await owner.close();
    },
  };
}

/** A port free right now, for the workers to share when PORT=0 (node:cluster gives each worker its own otherwise). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
