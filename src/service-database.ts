import type { DataSource } from 'typeorm';
import type { Config } from './config.js';
import { openDatabase } from './database.js';
import { prepareJobStore } from './jobs/agenda.js';
import { checkKeyFingerprint } from './key-fingerprint.js';
import type { Logger } from './logger.js';
import { loadSecretKey } from './secret-key.js';
import { AccountService } from './services/account.service.js';
import { prepareAccess, type StartupAccess } from './startup-access.js';

/**
 * The service's database, migrated, with the deployment's key checked against it and the job store set up (all under
 * the start-up lock on PostgreSQL), and the key that seals its secrets.
 */
export async function openServiceDatabase(config: Config, logger: Logger): Promise<{ dataSource: DataSource; secretKey: Buffer }> {
  const secretKey = loadSecretKey(config, logger);
  const dataSource = await openDatabase(config.database, {
    logger,
    // One deployment, one key; the job store's schema made once.
    setUp: async (db) => {
      await checkKeyFingerprint(db, secretKey);
      await prepareJobStore(config);
    },
  });
  return { dataSource, secretKey };
}

/**
 * What happens once per deployment before processes on one host open the database together (WEB_CONCURRENCY): the
 * secret key generated if need be, the migrations, the job store, and the bootstrap key or the demo account. Done by
 * the primary alone, so that workers starting at the same moment find it done (SQLite has no start-up lock, and two
 * workers would each make a demo account).
 */
export async function prepareDeployment(config: Config, logger: Logger): Promise<StartupAccess> {
  const { dataSource } = await openServiceDatabase(config, logger);
  try {
    return await prepareAccess(new AccountService(dataSource, config.quotas), config, logger);
  } finally {
    await dataSource.destroy();
  }
}
