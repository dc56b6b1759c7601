import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { startServer, type RunningServer } from '../server.js';
import { WorkerChannel } from './ipc.js';
import { OWNER_URL_VARIABLE, WORKER_LISTENING } from './primary.js';

/** A serving process of a cluster (cluster/primary.ts): the public port, with the primary's sandbox and shared state. */
export async function runWorker(config: Config, logger: Logger): Promise<RunningServer> {
  const ownerUrl = process.env[OWNER_URL_VARIABLE];
  if (!ownerUrl) throw new Error(`a cluster worker needs ${OWNER_URL_VARIABLE}`);
  const channel = new WorkerChannel();
  const running = await startServer(config, logger.child({ worker: process.pid }), { cluster: { role: 'worker', channel, ownerUrl } });
  process.send?.({ kind: WORKER_LISTENING });
  return running;
}
