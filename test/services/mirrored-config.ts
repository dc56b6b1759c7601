import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { until } from '../support/eventually.js';
import { admin, createTestDatabase } from '../support/postgres.js';
import { parsed } from '../support/service-calls.js';
import type { TestServices } from '../support/test-services.js';

/** How long a mirror may take to go live on a busy machine (an upper bound, not a measurement). */
export const MIRROR_WAIT_MS = 60_000;

/** A records_only config of an upstream base (logging into a base of its own), once its mirror is live. */
export async function mirroredConfig(t: TestServices, baseId: string, accountId = t.accountId): Promise<string> {
  const input = parsed(monitoringConfigInput.create, { baseId, monitoringBaseId: t.newLogBase(), scope: 'records_only' });
  const { id } = await t.services.monitoringConfigs.create(accountId, input);
  await until(
    async () => (await t.services.mirrorReads.state(accountId, id)).status,
    (status) => status === 'live',
    MIRROR_WAIT_MS,
  );
  return id;
}

/** A run's database: the environment that points the services at it, and what removes it afterwards. */
export interface RunDatabase {
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** SQLite always; PostgreSQL when its server answers (TEST_POSTGRES_URL). */
export async function mirrorDatabases(): Promise<Array<{ name: string; database: () => Promise<RunDatabase> }>> {
  const sqlite = { name: 'SQLite', database: async () => ({ env: {}, drop: async () => undefined }) };
  if (!(await admin('SELECT 1'))) return [sqlite];
  const postgres = async () => {
    const db = await createTestDatabase();
    return { env: { DATABASE_URL: db.url }, drop: db.drop };
  };
  return [sqlite, { name: 'PostgreSQL', database: postgres }];
}
