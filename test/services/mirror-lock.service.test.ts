import { describe, expect, it } from 'vitest';
import { findMirror, lockMirror } from '../../src/repositories/mirror.repository.js';
import { monitoringConfigInput } from '../../src/services/monitoring-config.input.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import { serviceDatabases, servicesOn } from '../support/test-services.js';

/**
 * The mirror's lock (EntityLookup.updateIn): one UPDATE … RETURNING that takes the row's write lock and answers the
 * mirror as it is under it, on both databases. Every page an ingestion applies and every page a seed writes start so.
 */
for (const { name, database } of await serviceDatabases()) {
  describe(`the mirror's lock on ${name}`, () => {
    const t = servicesOn(database);

    it('answers the mirror with its new updatedAt inside a transaction, null for a base without one', async () => {
      const baseId = t.baseId(DEMO_BASES.catalog);
      await t.services.monitoringConfigs.create(
        t.accountId,
        parsed(monitoringConfigInput.create, { baseId, monitoringBaseId: t.newLogBase(), scope: 'records_only' }),
      );
      const before = (await findMirror(t.dataSource, baseId))!;
      const now = new Date(before.updatedAt.getTime() + 60_000);
      const locked = await t.dataSource.transaction((manager) => lockMirror(manager, baseId, now));
      expect(locked).toMatchObject({ id: before.id, baseId, generation: before.generation, status: before.status });
      expect(locked!.updatedAt).toEqual(now);
      expect((await findMirror(t.dataSource, baseId))!.updatedAt).toEqual(now);
      expect(await t.dataSource.transaction((manager) => lockMirror(manager, 'appNoMirrorHere0', now))).toBeNull();
      await expect(lockMirror(t.dataSource.manager, baseId, now)).rejects.toThrow(/inside one/);
    });
  });
}
