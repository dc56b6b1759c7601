import type { DataSource } from 'typeorm';
import { DeploymentKey } from '../entities/index.js';

/**
 * Records `fingerprint` as the key `name`'s unless one is recorded already (whoever inserts first wins, also
 * between processes), and answers the fingerprint that stands.
 */
export async function recordFingerprintOnce(dataSource: DataSource, name: string, fingerprint: string): Promise<string> {
  await dataSource
    .createQueryBuilder()
    .insert()
    .into(DeploymentKey)
    .values({ name, fingerprint, recordedAt: new Date() })
    .orIgnore()
    .execute();
  return (await dataSource.getRepository(DeploymentKey).findOneByOrFail({ name })).fingerprint;
}
