import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { until } from '../support/eventually.js';
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

/** A records_only config of an upstream base with its mirror seeded here and now, for services without jobs. */
export async function seededConfig(t: TestServices, baseId: string): Promise<string> {
  const input = parsed(monitoringConfigInput.create, { baseId, monitoringBaseId: t.newLogBase(), scope: 'records_only' });
  const { id } = await t.services.monitoringConfigs.create(t.accountId, input);
  const outcome = await t.services.mirrorSeeds.seed(baseId);
  if (outcome !== 'live') throw new Error(`the seed ended ${outcome}`);
  return id;
}
