import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/eventually.js';
import { sandboxApi, type SandboxApi } from '../support/sandbox-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { allChanges, AUDIT_APP_ENV, relaxSandboxRateLimit, type ChangeRecord } from './audit-support.js';

describe('two bases logged into each other (X→Y and Y→X)', () => {
  let app: TestApp;
  let api: SandboxApi;
  const x = { baseId: '', tableId: '', configId: '' };
  const y = { baseId: '', tableId: '', configId: '' };

  const names = (list: ChangeRecord[]) => list.map((change) => Object.values(change.after ?? {}).join(' | ')).sort();
  const changesOf = (configId: string) => allChanges(app.http, configId);
  /** Waits until the config logged a row named `name` and wrote it into its Changes table (in the other base). */
  const writtenBy = (configId: string, name: string) =>
    until(
      () => changesOf(configId),
      (list) => list.some((change) => Object.values(change.after ?? {}).includes(name) && change.monitoringRecordId !== null),
    );
  const addNote = (side: typeof x, name: string) => api.createRecords(side.baseId, side.tableId, [{ Name: name }]);

  beforeAll(async () => {
    app = await startTestApp(AUDIT_APP_ENV);
    relaxSandboxRateLimit(app);
    api = sandboxApi(app.url);
    for (const [side, name] of [
      [x, 'Loop X'],
      [y, 'Loop Y'],
    ] as const) {
      const base = app.running.sandbox!.store.addBase({
        name,
        tables: [{ name: 'Notes', fields: [{ name: 'Name', type: 'singleLineText' }] }],
      });
      side.baseId = base.id;
      side.tableId = base.tables[0]!.id;
    }
    const configs = app.running.services.monitoringConfigs;
    x.configId = (await configs.create(app.accountId, { baseId: x.baseId, monitoringBaseId: y.baseId, scope: 'records_only' })).id;
    y.configId = (await configs.create(app.accountId, { baseId: y.baseId, monitoringBaseId: x.baseId, scope: 'records_only' })).id;
  }, 60_000);
  afterAll(() => app?.close());

  it('logs a change once: the rows each config writes into the other base are not logged again', async () => {
    await addNote(x, 'Changed in X');
    await writtenBy(x.configId, 'Changed in X');
    // Each base's changes are read in order: once a change made after a written row is logged, that row was read too.
    await addNote(y, 'Marker in Y');
    await writtenBy(y.configId, 'Marker in Y');
    await addNote(x, 'Marker in X');
    await writtenBy(x.configId, 'Marker in X');
    await addNote(y, 'Second marker in Y');
    await writtenBy(y.configId, 'Second marker in Y');

    expect(names(await changesOf(x.configId))).toEqual(['Changed in X', 'Marker in X']);
    expect(names(await changesOf(y.configId))).toEqual(['Marker in Y', 'Second marker in Y']);
  }, 90_000);
});
