import cluster, { type Worker } from 'node:cluster';
import { createServer } from 'node:net';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { prepareDeployment } from '../service-database.js';
import { accessBanner } from '../startup-access.js';
import { servePrimaryLoopback } from './primary-loopback.js';

export const PRIMARY_URL_VARIABLE = 'BASEWATCH_PRIMARY_URL';
/** What a worker tells its primary once it serves (its port answers 503 while it starts). */
export const WORKER_READY = 'basewatch:ready';

/** How long a worker that crashed at once waits before it is replaced again, so a broken start does not spin. */
const RESTART_BACKOFF_MS = 1_000;

/** Said when WEB_CONCURRENCY > 1 is asked for without Redis. */
export function webConcurrencyNeedsRedis(config: Config): string | undefined {
  if (config.webConcurrency <= 1 || config.redis) return undefined;
  return (
    `WEB_CONCURRENCY=${config.webConcurrency} needs REDIS_URL: its processes share upstream limits, request budgets, ` +
    'sign-in limits and subscription events through Redis. Set REDIS_URL, or WEB_CONCURRENCY=1. ' +
    'See README, "Several processes on one host".'
  );
}

/**
 * WEB_CONCURRENCY > 1: N workers (node:cluster) share the public port, each a whole replica (its own database
 * connections, jobs and metrics; limits, budgets and events in Redis). This process sets the deployment up before
 * they start (database-wide work that must run once), and keeps what there is one of per host on a loopback port of
 * its own: the built-in sandbox and the sum of the workers' metrics. A worker that dies is replaced; SIGTERM drains
 * the workers, then stops this.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<{ stop(): Promise<void> }> {
  const port = config.port === 0 ? await freePort(config.host) : config.port;
  const loopback = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const publicUrl = config.publicUrl ?? `http://${loopback}:${port}`;
  const access = await prepareDeployment(config, logger);
  const primary = await servePrimaryLoopback(config, publicUrl, logger);

  const env = { PORT: String(port), PUBLIC_URL: config.publicUrl ?? '', [PRIMARY_URL_VARIABLE]: primary.url };
  let stopping = false;
  const ready = new Set<number>();
  const fork = () => cluster.fork(env);
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (message === WORKER_READY) ready.add(worker.id);
  });
  cluster.on('exit', (worker, code, signal) => {
    const wasServing = ready.delete(worker.id);
    if (stopping) return;
    logger.warn({ worker: worker.id, pid: worker.process.pid, code, signal }, 'worker exited; starting another');
    setTimeout(fork, wasServing ? 0 : RESTART_BACKOFF_MS).unref();
  });
  for (let i = 0; i < config.webConcurrency; i++) fork();
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (ready.size < config.webConcurrency) return;
      clearInterval(check);
      resolve();
    }, 20);
  });
  logger.info({ url: publicUrl, workers: config.webConcurrency }, 'basewatch is listening');
  process.stdout.write(accessBanner(publicUrl, access, config.upstream.mode === 'sandbox' ? config.sandbox.token : undefined));

  return {
    stop: async () => {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
      const exited = workers.map(
        (worker) => new Promise<void>((resolve) => (worker.isDead() ? resolve() : worker.once('exit', () => resolve()))),
      );
      for (const worker of workers) worker.process.kill('SIGTERM');
      // Each drains within its own deadline; past it, with some slack, it is killed.
      const deadline = config.shutdownDrainMs + config.shutdownTimeoutMs + 5_000;
      const late = setTimeout(() => {
        for (const worker of workers) if (!worker.isDead()) worker.process.kill('SIGKILL');
      }, deadline);
      await Promise.all(exited);
      clearTimeout(late);
      // After the workers: their last counts may still be reading the sandbox.
      await primary.close();
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
