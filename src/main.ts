import 'reflect-metadata';
import { ConfigError, loadConfig } from './config.js';
import { createLogger, safeError } from './logger.js';
import { startServer } from './server.js';
import { printAccessBanner } from './startup-banner.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const running = await startServer(config, logger);
  logger.info({ url: running.url, upstream: config.upstream.mode, database: config.database.type }, 'basewatch is listening');
  await printAccessBanner(running, config, logger);

  const stop = (signal: string) => {
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
}

main().catch((error: unknown) => {
  process.stderr.write(`basewatch failed to start: ${safeError(error).message}\n`);
  process.exit(1);
});
