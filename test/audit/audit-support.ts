import { expect } from 'vitest';
import type { ChangeRecord } from '../../src/services/audit/change-row.js';
import { DEMO_BASES, upstreamBaseId } from '../support/factories.js';
import type { Http } from '../support/http.js';
import type { SandboxApi } from '../support/sandbox-api.js';
import type { TestApp } from '../support/test-app.js';

/** Jobs run (ingest, write, poll) and quickly; the sandbox lets the test's own traffic through. */
export const AUDIT_APP_ENV = {
  SCHEDULER_RUN_JOBS: 'true',
  JOBS_PROCESS_EVERY_MS: '50',
  AUDIT_POLL_INTERVAL_SECONDS: '1',
  AUDIT_WRITE_RETRY_BASE_MS: '200',
  AUDIT_WRITE_MAX_RETRY_MS: '1000',
};

/**
 * The test's own calls to the sandbox share each base's 5 requests/s with the service; the sandbox is told to allow
 * more so that only the service's own limiter shapes its traffic.
 */
export function relaxSandboxRateLimit(app: TestApp): void {
  app.running.sandbox!.faults.update({ rateLimitPerSecond: 1_000 });
}

/** A records_only config that logs the demo catalog base into the change-log base, and the catalog's Suppliers table. */
export async function logCatalogSuppliers(app: TestApp, api: SandboxApi) {
  const baseId = await upstreamBaseId(app.http, DEMO_BASES.catalog);
  const monitoringBaseId = await upstreamBaseId(app.http, DEMO_BASES.changeLog);
  const res = await app.http('POST', '/monitoring-config', { body: { baseId, monitoringBaseId, scope: 'records_only' } });
  expect(res.status).toBe(201);
  const suppliers = (await api.schema(baseId)).find((t) => t.name === 'Suppliers')!;
  const primaryName = suppliers.fields.find((f) => f.id === suppliers.primaryFieldId)!.name;
  return { baseId, monitoringBaseId, configId: res.body.config.id as string, tableId: suppliers.id, primaryName };
}

/** Every logged change of a config through endpoint 8, newest first. */
export async function allChanges(http: Http, configId: string, query = ''): Promise<ChangeRecord[]> {
  const records: ChangeRecord[] = [];
  let cursor: string | undefined;
  do {
    const params = new URLSearchParams(query);
    params.set('limit', '100');
    if (cursor) params.set('cursor', cursor);
    const res = await http('GET', `/monitoring-config/${configId}/changes?${params}`);
    expect(res.status).toBe(200);
    records.push(...res.body.records);
    cursor = res.body.nextCursor;
  } while (cursor);
  return records;
}

export { eventually } from '../support/eventually.js';

/** Every row of an upstream table, read through the sandbox API. */
export async function tableRows(api: SandboxApi, baseId: string, tableId: string) {
  const rows: Array<{ id: string; fields: Record<string, unknown> }> = [];
  let offset: string | undefined;
  do {
    const page = await api.listRecords(baseId, tableId, offset ? `?offset=${offset}` : '');
    rows.push(...page.records);
    offset = page.offset;
  } while (offset);
  return rows;
}

export type { ChangeRecord };
