import 'reflect-metadata';
import cluster from 'node:cluster';
import { runPrimary, webConcurrencyNeedsRedis } from './web-concurrency/primary.js';
import { runWorker } from './web-concurrency/worker.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, safeError, type Logger } from './logger.js';
import { startServer, type RunningServer } from './server.js';
import { accessBanner } from './startup-access.js';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  if (config.webConcurrency > 1) {
    const refusal = webConcurrencyNeedsRedis(config);
    if (refusal) throw new Error(refusal);
    return cluster.isPrimary ? runClusterPrimary(config, logger) : runClusterWorker(config, logger);
  }
  await runSingle(config, logger);
}

/**
 * Stops on SIGTERM/SIGINT, then exits. One that arrives while starting ends the process at once (exit 1): the start
 * may be waiting on something that does not answer (Redis, another process's migrations), and anything it left
 * half-done is safe to drop (migrations run in transactions; locks go with the connections).
 */
function stopOnSignals(logger: Logger, stopper: () => { stop(): Promise<void> } | undefined): void {
  const stop = (signal: string) => {
    const running = stopper();
    if (!running) {
      logger.warn({ signal }, 'stopped while starting');
      process.exit(1);
    }
    logger.info({ signal }, 'shutting down');
    running.stop().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: safeError(error) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

async function runSingle(config: Config, logger: Logger): Promise<void> {
  let running: RunningServer | undefined;
  stopOnSignals(logger, () => running && { stop: () => running!.close() });
  running = await startServer(config, logger);
  logger.info({ url: running.url, upstream: config.upstream.mode, database: config.database.type }, 'basewatch is listening');
  process.stdout.write(accessBanner(running.url, running.access, config.upstream.mode === 'sandbox' ? config.sandbox.token : undefined));
}

async function runClusterPrimary(config: Config, logger: Logger): Promise<void> {
  let primary: { stop(): Promise<void> } | undefined;
  stopOnSignals(logger, () => primary);
  primary = await runPrimary(config, logger);
}

async function runClusterWorker(config: Config, logger: Logger): Promise<void> {
  let running: RunningServer | undefined;
  stopOnSignals(logger, () => running && { stop: () => running!.close() });
  // A worker whose primary is gone would be left unsupervised (and without the sandbox): it stops as on SIGTERM.
  process.once('disconnect', () => process.emit('SIGTERM'));
  running = await runWorker(config, logger);
}

/** What a library lets escape ends the process as Node would (exit 1), with one line instead of a stack trace. */
function exitOnEscapedError(error: unknown): void {
  process.stderr.write(`basewatch stopped on an unexpected error: ${safeError(error).message}\n`);
  process.exit(1);
}
process.on('unhandledRejection', exitOnEscapedError);
process.on('uncaughtException', exitOnEscapedError);

main().catch((error: unknown) => {
  process.stderr.write(`basewatch failed to start: ${safeError(error).message}\n`);
  process.exit(1);
});
