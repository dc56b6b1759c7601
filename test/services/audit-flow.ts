import { changeQueryInput } from '../../src/services/audit/change-query.input.js';
import type { ChangeRecord } from '../../src/services/audit/change-row.js';
import { DEMO_BASES } from '../support/factories.js';
import { parsed } from '../support/service-calls.js';
import type { TestServices } from '../support/test-services.js';

/**
 * The audit pipeline driven by hand, as its jobs (src/jobs/audit.jobs.ts) would: every watch read (audit.ingest),
 * then every config with waiting Changes-table rows drained (audit.write; the writer itself keeps to each row's
 * retry time). The service tests have no listener for the upstream's pings.
 */
export async function runPipeline(t: TestServices): Promise<void> {
  for (const watch of await t.services.watches.listAll()) await t.services.changeIngest.ingest(watch.id);
  for (const { configId } of await t.services.changeWriter.pending()) await t.services.changeWriter.drain(configId);
}

/** runPipeline where a step may fail (upstream outages): each failure is left for the next run, as a job's retry would. */
export async function runPipelineRetrying(t: TestServices): Promise<unknown[]> {
  const failures: unknown[] = [];
  const attempt = (step: () => Promise<unknown>) => step().catch((error: unknown) => void failures.push(error));
  for (const watch of await t.services.watches.listAll()) await attempt(() => t.services.changeIngest.ingest(watch.id));
  for (const { configId } of await t.services.changeWriter.pending()) await attempt(() => t.services.changeWriter.drain(configId));
  return failures;
}

/** Every logged change of a config, newest first, as the change list serves it. */
export async function allChanges(t: TestServices, configId: string, accountId = t.accountId): Promise<ChangeRecord[]> {
  const config = await t.services.monitoringConfigs.logTarget(accountId, configId);
  const records: ChangeRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await t.services.changeQueries.list(
      config,
      parsed(changeQueryInput.list, { limit: '100', ...(cursor ? { cursor } : {}) }),
    );
    records.push(...(JSON.parse(page.records.text) as ChangeRecord[]));
    cursor = page.nextCursor;
  } while (cursor);
  return records;
}

/** The values of each change's `after`. */
export const afterValues = (changes: ChangeRecord[]) => changes.flatMap((change) => Object.values(change.after ?? {}));

/** A records_only config that logs the demo catalog base into the change-log base, and the catalog's Suppliers table. */
export async function logCatalogSuppliers(t: TestServices, accountId = t.accountId) {
  const baseId = t.baseId(DEMO_BASES.catalog);
  const monitoringBaseId = t.baseId(DEMO_BASES.changeLog);
  const config = await t.services.monitoringConfigs.create(accountId, { baseId, monitoringBaseId, scope: 'records_only' });
  const suppliers = t.sandbox.store.getTable(baseId, 'Suppliers')!;
  const primaryName = suppliers.fields.find((f) => f.id === suppliers.primaryFieldId)!.name;
  return { baseId, monitoringBaseId, config, configId: config.id, tableId: suppliers.id, primaryName };
}

export type { ChangeRecord };
