import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { MonitoringConfig } from '../../src/entities/index.js';
import { openDatabase } from '../../src/database.js';
import { loadConfig } from '../../src/config.js';
import { AccountService } from '../../src/services/account.service.js';
import { kindOf, type ChangeEventType, type ChangeSource } from '../../src/services/audit/change-event.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { createRandom, hashSeed, type Random } from '../../src/sandbox/prng.js';

export interface ChangeLogOptions {
  entries: number;
  days: number;
  /** Entries end just before this instant. */
  until: string;
}

export interface SeededChangeLog {
  configId: string;
  /** Table ids and user e-mails, most frequent first. */
  tableIds: string[];
  userEmails: string[];
  /** Bytes of the SQLite file. */
  fileBytes: number;
}

const DAY_MS = 86_400_000;
const TABLES = 20;
const FIELDS_PER_TABLE = 15;
const RECORDS_PER_TABLE = 5_000;

/** Upstream mix: mostly cell edits, some creates and deletes, a little schema work. */
const EVENT_WEIGHTS: Record<ChangeEventType, number> = {
  record_create: 14,
  record_update: 70,
  record_delete: 5,
  table_create: 0.3,
  table_update: 0.5,
  table_delete: 0.2,
  column_create: 4,
  column_update: 5,
  column_delete: 1,
};
const SOURCE_WEIGHTS: Array<[ChangeSource, number, boolean]> = [
  // source, weight, has a user
  ['client', 60, true],
  ['automation', 12, false],
  ['publicApi', 10, true],
  ['formSubmission', 5, false],
  ['sync', 5, false],
  ['publicApiCall', 3, true],
  ['system', 2, false],
  ['formPageSubmission', 1, false],
  ['anonymousUser', 1, false],
  ['unknown', 1, false],
];

/**
 * Writes an account holding `apiKey`, one monitoring config and `entries` change entries (with their
 * change_entry_field rows) straight into the SQLite file, in one transaction, oldest first as ingestion would.
 * Spread: busier on weekdays and office hours (UTC-5), tables and users Zipf-like, bursts that share a timestamp.
 */
export async function seedChangeLog(databasePath: string, apiKey: string, options: ChangeLogOptions): Promise<SeededChangeLog> {
  const dataSource = await openDatabase({ type: 'sqlite', path: databasePath });
  let configId: string;
  try {
    const { account } = await new AccountService(dataSource, loadConfig({}).quotas).ensureKey(apiKey, 'bench');
    configId = randomUUID();
    const now = new Date(options.until);
    // Bases of the demo seed, which the built service's sandbox has too: at start-up it watches the monitored one.
    const demo = createSandbox({ token: 'bench' }).store.listBases();
    const monitored = demo.find((base) => base.name === 'Acme Product Catalog')!;
    const monitoring = demo.find((base) => base.name === 'Change Log')!;
    await dataSource.getRepository(MonitoringConfig).insert({
      id: configId,
      accountId: account.id,
      baseId: monitored.id,
      baseName: monitored.name,
      workspaceId: upstreamId('wsp', 'workspace'),
      monitoringBaseId: monitoring.id,
      monitoringBaseName: monitoring.name,
      monitoringTableId: upstreamId('tbl', 'changes'),
      monitoringTableName: 'Changes',
      scope: 'all',
      timezone: 'America/New_York',
      createdAt: now,
      updatedAt: now,
    });
  } finally {
    await dataSource.destroy();
  }

  const random = createRandom(hashSeed('change log bench'));
  const tables = Array.from({ length: TABLES }, (_, t) => ({
    id: upstreamId('tbl', t),
    name: `Table ${t + 1}`,
    fields: Array.from({ length: FIELDS_PER_TABLE }, (_, f) => upstreamId('fld', `${t}.${f}`)),
  }));
  const users = Array.from({ length: 10 }, (_, u) => ({ email: `user${u + 1}@example.com`, name: `User ${u + 1}` }));
  const pickTable = zipf(random, tables);
  const pickUser = zipf(random, users);
  const pickEvent = weighted(random, Object.entries(EVENT_WEIGHTS) as Array<[ChangeEventType, number]>);
  const pickSource = weighted(
    random,
    SOURCE_WEIGHTS.map(([source, weight, hasUser]) => [{ source, hasUser }, weight] as const),
  );
  const times = occurrenceTimes(random, options);

  const db = new Database(databasePath);
  // A throwaway file written once: no rollback journal, no syncs, a cache big enough for the unique-position index.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -524288');
  const insertEntry = db.prepare(
    `INSERT INTO change_entry (id, config_id, occurred_at, event_type, kind, table_id, table_name, record_id, field_ids,
       source, user_email, user_name, before_json, after_json, monitoring_record_id, position, logged_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertField = db.prepare('INSERT INTO change_entry_field (entry_id, field_id, config_id, occurred_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < times.length; i++) {
      const id = i + 1;
      const occurredAt = new Date(times[i]).toISOString();
      const eventType = pickEvent();
      const table = pickTable();
      const { source, hasUser } = pickSource();
      const user = hasUser ? pickUser() : null;
      const change = describeChange(random, eventType, table);
      insertEntry.run(
        id,
        configId,
        occurredAt,
        eventType,
        kindOf(eventType),
        table.id,
        table.name,
        change.recordId,
        JSON.stringify(change.fieldIds),
        source,
        user?.email ?? null,
        user?.name ?? null,
        change.before && JSON.stringify(change.before),
        change.after && JSON.stringify(change.after),
        // Most entries were written to the Changes table already; the newest are still in the outbox.
        i < times.length - 200 ? upstreamId('rec', `log ${i}`) : null,
        `achBench00000000:${Math.floor(i / 10)}:${i % 10}`,
        new Date(times[i] + 2_000).toISOString(),
      );
      for (const fieldId of change.fieldIds) insertField.run(id, fieldId, configId, occurredAt);
    }
  })();
  db.pragma('journal_mode = WAL');
  db.close();
  return { configId, tableIds: tables.map((t) => t.id), userEmails: users.map((u) => u.email), fileBytes: statSync(databasePath).size };
}

/** Sorted instants (ms): weekdays ×3, 09–18 New York time ×5, and one in five changes in a burst of 2–10 sharing a time. */
function occurrenceTimes(random: Random, { entries, days, until }: ChangeLogOptions): Float64Array {
  const end = Date.parse(until);
  const start = end - days * DAY_MS;
  const times = new Float64Array(entries);
  let i = 0;
  while (i < entries) {
    let at: number;
    for (;;) {
      at = Math.floor(start + random() * (end - start));
      const local = new Date(at - 5 * 3_600_000);
      const weekday = local.getUTCDay() % 6 !== 0;
      const office = local.getUTCHours() >= 9 && local.getUTCHours() < 18;
      if (random() * 15 < (weekday ? 3 : 1) * (office ? 5 : 1)) break;
    }
    const burst = random() < 0.2 ? 2 + Math.floor(random() * 9) : 1;
    for (let b = 0; b < burst && i < entries; b++) times[i++] = at;
  }
  return times.sort();
}

function describeChange(random: Random, eventType: ChangeEventType, table: { id: string; fields: string[] }) {
  const record = () => upstreamId('rec', `${table.id}.${Math.floor(random() * RECORDS_PER_TABLE)}`);
  const field = () => table.fields[Math.floor(random() * table.fields.length)];
  const cells = (fieldIds: string[]) => Object.fromEntries(fieldIds.map((f) => [f, cellValue(random)]));
  switch (eventType) {
    case 'record_update': {
      const fieldIds = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, field))];
      return { recordId: record(), fieldIds, before: cells(fieldIds), after: cells(fieldIds) };
    }
    case 'record_create':
      return { recordId: record(), fieldIds: [], before: null, after: cells(table.fields.slice(0, 4)) };
    case 'record_delete':
      return { recordId: record(), fieldIds: [], before: cells(table.fields.slice(0, 4)), after: null };
    case 'column_create':
    case 'column_update':
    case 'column_delete': {
      const fieldId = field();
      const definition = (name: string) => ({ name, type: random() < 0.5 ? 'singleLineText' : 'number' });
      return {
        recordId: fieldId,
        fieldIds: [fieldId],
        before: eventType === 'column_create' ? null : definition('Old name'),
        after: eventType === 'column_delete' ? null : definition('New name'),
      };
    }
    default:
      return {
        recordId: null,
        fieldIds: [],
        before: eventType === 'table_create' ? null : { name: 'Old table name' },
        after: eventType === 'table_delete' ? null : { name: 'New table name' },
      };
  }
}

function cellValue(random: Random): unknown {
  const roll = random();
  if (roll < 0.4) return `Value ${Math.floor(random() * 100_000)}`;
  if (roll < 0.7) return Math.round(random() * 10_000) / 100;
  if (roll < 0.8) return random() < 0.5;
  if (roll < 0.9) return null;
  return [{ id: upstreamId('sel', Math.floor(random() * 20)), name: `Option ${Math.floor(random() * 20)}`, color: 'blueLight2' }];
}

/** Picks items[k] with weight 1/(k+1). */
function zipf<T>(random: Random, items: T[]): () => T {
  return weighted(
    random,
    items.map((item, k) => [item, 1 / (k + 1)] as const),
  );
}

function weighted<T>(random: Random, options: ReadonlyArray<readonly [T, number]>): () => T {
  const total = options.reduce((sum, [, weight]) => sum + weight, 0);
  return () => {
    let roll = random() * total;
    for (const [item, weight] of options) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return options[options.length - 1][0];
  };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A stable upstream-style id: a 3-letter prefix and 14 letters or digits. */
function upstreamId(prefix: string, key: string | number): string {
  const random = createRandom(hashSeed(prefix, key));
  return prefix + Array.from({ length: 14 }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join('');
}
