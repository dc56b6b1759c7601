import { AggregatorRegistry } from 'prom-client';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { startServer, type RunningServer } from '../server.js';
import { PRIMARY_URL_VARIABLE, WORKER_READY } from './primary.js';

/** A serving process under WEB_CONCURRENCY (web-concurrency/primary.ts): a whole replica on the shared public port. */
export async function runWorker(config: Config, logger: Logger): Promise<RunningServer> {
  const primaryUrl = process.env[PRIMARY_URL_VARIABLE];
  if (!primaryUrl) throw new Error(`a WEB_CONCURRENCY worker needs ${PRIMARY_URL_VARIABLE}`);
  // Made at once, so that a scrape while this starts is answered (from the empty default registry) and not held up.
  new AggregatorRegistry();
  const running = await startServer(config, logger.child({ worker: process.pid }), { primaryUrl });
  AggregatorRegistry.setRegistries(running.metrics.registry);
  process.send?.(WORKER_READY);
  return running;
}
