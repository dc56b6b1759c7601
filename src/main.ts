import 'reflect-metadata';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, safeError } from './logger.js';
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
  // Signals are taken from the start: one that arrives while starting stops the service once it is up.
  let running: RunningServer | undefined;
  let stopSignal: string | undefined;
  const stop = (signal: string) => {
    stopSignal ??= signal;
    if (!running) return;
    logger.info({ signal }, 'shutting down');
    running.close().then(
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

  running = await startServer(config, logger);
  logger.info({ url: running.url, upstream: config.upstream.mode, database: config.database.type }, 'basewatch is listening');
  process.stdout.write(accessBanner(running.url, running.access, config.upstream.mode === 'sandbox' ? config.sandbox.token : undefined));
  if (stopSignal) stop(stopSignal);
}

main().catch((error: unknown) => {
  process.stderr.write(`basewatch failed to start: ${safeError(error).message}\n`);
  process.exit(1);
});
