import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  createSandbox,
  DEMO_BASE_NAMES,
  type Sandbox,
  type SandboxLogger,
  type SandboxOptions,
  type SandboxStore,
} from '../../src/sandbox/index.js';
import { eventually } from '../support/eventually.js';
import { baseIdByName } from './sandbox-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'basewatch-sandbox-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newStateFile = () => join(dir, `state-${++files}`, 'sandbox-state.json');

function recordingLogger() {
  const lines: Array<{ level: 'info' | 'warn'; message: string; details: Record<string, unknown> }> = [];
  const logger: SandboxLogger = {
    info: (details, message) => void lines.push({ level: 'info', message, details: details as Record<string, unknown> }),
    warn: (details, message) => void lines.push({ level: 'warn', message, details: details as Record<string, unknown> }),
  };
  return { logger, lines };
}

const open = (stateFile: string, options: Partial<SandboxOptions> = {}) =>
  createSandbox({ token: 't', stateFile, logger: recordingLogger().logger, ...options });

function dump(store: SandboxStore): string {
  return JSON.stringify(store.listBases(), (_key, value: unknown) => (value instanceof Map ? [...value.values()] : value));
}

/** Every id the sandbox handed out: bases, tables, fields, views, select choices, records, attachments. */
function idsIn(sandbox: Sandbox): Set<string> {
  return new Set(dump(sandbox.store).match(/\b(app|tbl|fld|viw|sel|rec|att)[A-Za-z0-9]{14}\b/g));
}

const SPECIFICATION = { specification: { options: { filters: { dataTypes: ['tableData', 'tableFields'] } } } };

describe('sandbox state file', () => {
  it('brings back the same bases, records, webhooks and cursors after a restart, and never reuses an id', () => {
    const stateFile = newStateFile();
    const first = open(stateFile);
    const catalog = baseIdByName(first, DEMO_BASE_NAMES.catalog);
    const changeLog = baseIdByName(first, DEMO_BASE_NAMES.changeLog);
    const hook = first.webhooks.create(catalog, SPECIFICATION);
    const suppliers = first.store.createRecords(catalog, 'Suppliers', [{ Name: 'Kept 1', Country: 'Chile' }, { Name: 'Kept 2' }], {
      typecast: true,
    });
    first.store.updateRecords(catalog, 'Suppliers', [{ id: suppliers[1]!.id, fields: { Email: 'kept@example.com' } }]);
    const photo = first.store.createRecords(catalog, 'Products', [{ Name: 'With photo', Photos: [{ url: 'https://img.example/p.png' }] }]);
    const changes = first.store.createTable(changeLog, { name: 'Changes', fields: [{ name: 'Entry ID', type: 'singleLineText' }] });
    first.store.createRecords(changeLog, changes.id, [{ 'Entry ID': '1' }]);
    const payloads = first.webhooks.listPayloads(catalog, hook.id, 1, 50);
    expect(payloads.payloads).toHaveLength(3);
    const listed = first.webhooks.list(catalog);
    const before = dump(first.store);
    const idsBefore = idsIn(first);
    first.close();

    const second = open(stateFile, { demo: { scale: 3 } });
    expect(dump(second.store)).toBe(before);
    expect(second.store.getRecord(catalog, 'Products', photo[0]!.id)).toEqual(photo[0]);
    expect(second.store.getTable(changeLog, changes.id)?.records.size).toBe(1);
    expect(second.webhooks.list(catalog)).toEqual(listed);
    expect(second.webhooks.listPayloads(catalog, hook.id, 1, 50)).toEqual(payloads);
    const secret = (sandbox: Sandbox) => sandbox.webhooks.exportState().webhooks.find((h) => h.id === hook.id)?.macSecretBase64;
    expect(secret(second)).toBe(hook.macSecretBase64);

    // Ids made now continue the streams: none repeats one made before the restart (same table or not).
    const orders = second.store.createRecords(catalog, 'Orders', [{ Order: 'After restart' }]);
    const table = second.store.createTable(changeLog, { name: 'Changes 2', fields: [{ name: 'Entry ID', type: 'singleLineText' }] });
    const hook2 = second.webhooks.create(catalog, SPECIFICATION);
    for (const id of [orders[0]!.id, table.id, table.primaryFieldId, table.views[0]!.id]) expect(idsBefore.has(id), id).toBe(false);
    expect(hook2.id).not.toBe(hook.id);

    // The webhook's cursor and the base's transaction number go on from where they were.
    const next = second.webhooks.listPayloads(catalog, hook.id, payloads.cursor, 50);
    expect(next.payloads.map((p) => p.baseTransactionNumber)).toEqual([payloads.payloads.at(-1)!.baseTransactionNumber + 1]);
    expect(next.cursor).toBe(payloads.cursor + 1);
    second.close();
  });

  it('saves by itself shortly after a change, one write for a burst', async () => {
    const stateFile = newStateFile();
    const sandbox = open(stateFile, { demo: false, stateSaveDelayMs: 100 });
    const base = sandbox.store.addBase({ name: 'Burst', tables: [{ name: 'T', fields: [{ name: 'Name', type: 'singleLineText' }] }] });
    await eventually(async () => existsSync(stateFile), Boolean, 2_000);
    const written = sandbox.store.createRecords(
      base.id,
      'T',
      Array.from({ length: 20 }, (_, i) => ({ Name: `r${i}` })),
    );
    const saved = await eventually(
      async () => readFileSync(stateFile, 'utf8'),
      (text) => text.includes(written.at(-1)!.id),
      2_000,
    );
    expect(written.every((record) => saved.includes(record.id))).toBe(true);
    // Written by rename: no temporary file is left beside it.
    expect(readdirSync(join(stateFile, '..'))).toEqual(['sandbox-state.json']);
    sandbox.close();
  });

  it('moves an unusable file aside with a warning and starts from the demo seed again', () => {
    const fresh = dump(createSandbox({ token: 't' }).store);
    for (const content of ['{"format":"basewatch-sandbox-state", "version": 1, "stor', JSON.stringify({ format: 'other', version: 1 })]) {
      const stateFile = newStateFile();
      const folder = join(stateFile, '..');
      open(stateFile).close();
      writeFileSync(stateFile, content);
      const { logger, lines } = recordingLogger();
      const sandbox = createSandbox({ token: 't', stateFile, logger });
      expect(dump(sandbox.store)).toBe(fresh);
      const warning = lines.find((line) => line.level === 'warn');
      expect(warning?.message).toMatch(/sandbox state file is unusable.*demo seed/);
      expect(warning?.details).toMatchObject({
        path: stateFile,
        problem: expect.any(String),
        movedTo: expect.stringContaining('.corrupt-'),
      });
      expect(readFileSync(warning!.details.movedTo as string, 'utf8')).toBe(content);
      sandbox.close();
      expect(JSON.parse(readFileSync(stateFile, 'utf8')).format).toBe('basewatch-sandbox-state');
      expect(readdirSync(folder).sort()).toHaveLength(2);
    }
  });

  it('lives beside the SQLite file by default; SANDBOX_STATE_FILE names another or turns it off', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:/srv/bw/basewatch.sqlite' }).sandbox.stateFile).toBe('/srv/bw/sandbox-state.json');
    expect(loadConfig({}).sandbox.stateFile).toBe('data/sandbox-state.json');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).sandbox.stateFile).toBe('data/sandbox-state.json');
    expect(loadConfig({ SANDBOX_STATE_FILE: '/tmp/x.json' }).sandbox.stateFile).toBe('/tmp/x.json');
    expect(loadConfig({ SANDBOX_STATE_FILE: 'off' }).sandbox.stateFile).toBeUndefined();
    expect(loadConfig({ SANDBOX_STATE_FILE: '' }).sandbox.stateFile).toBeUndefined();
  });
});
