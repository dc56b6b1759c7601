import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/database.js';
import { MonitoringConfig } from '../../src/entities/index.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { createRandom, hashSeed } from '../../src/sandbox/prng.js';
import { AccountService } from '../../src/services/account.service.js';
import { canonicalJson, KEYFRAME_EVERY, withChanges, type Cells } from '../../src/services/mirror/record-state.js';
import { baselineVersion, cellsOf, mirrorBaseRow, recordRow, type MirrorContent } from './mirror-fill.js';
import { benchSchema, editedCells, recordIds } from './mirror-rows.js';

export interface SeededHistory {
  configId: string;
  records: number;
  versions: number;
  deleted: number;
  /** Record ids: the tenth with half of all edits (about 46 versions each), and the others. */
  hotIds: string[];
  coldIds: string[];
  /** The seed's instant and the newest version's: every `at` between them is answerable. */
  from: string;
  until: string;
  fileBytes: number;
}

const DAY_MS = 86_400_000;
const SPAN_DAYS = 30;

/**
 * Writes a live mirror of `records` records (50 fields) with `versions` versions in all straight into a migrated
 * SQLite file, in the repository's format: a baseline (keyframe) of every record at the seed, then edits of 1–3 cells
 * over 30 days in time order, every 16th version of a record whole (record-state.ts); 1 % of the records deleted at
 * the end. The mirror is of the demo catalog base, watched by a monitoring config of an account holding `apiKey`, so
 * that the built service (whose sandbox has the same demo bases) lets the account read it.
 */
export async function seedMirrorHistory(
  databasePath: string,
  apiKey: string,
  size: { records: number; versions: number },
): Promise<SeededHistory> {
  const until = Date.now() - 60_000;
  const from = until - SPAN_DAYS * DAY_MS;
  const configId = randomUUID();
  const baseId = await prepareAccount(databasePath, apiKey, configId, new Date(until));
  const content: MirrorContent = { baseId, schema: benchSchema(10), ids: recordIds(size.records, 'history') };
  const plan = planEdits(size.records, size.versions, from, until);

  const db = new Database(databasePath);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -524288');
  const insertVersion = db.prepare(
    `INSERT INTO mirror_version (base_id, record_id, at, event_type, source, user_email, keyframe, fields_json)
     VALUES (@base_id, @record_id, @at, @event_type, @source, @user_email, @keyframe, @fields_json)`,
  );
  const insertRecord = db.prepare(
    `INSERT INTO mirror_record (base_id, record_id, table_id, created_time, deleted_at, deleted_by, fields_json, versions, file_count, attachment_bytes)
     VALUES (@base_id, @record_id, @table_id, @created_time, @deleted_at, @deleted_by, @fields_json, @versions, @file_count, @attachment_bytes)`,
  );
  const seededAt = new Date(from).toISOString();
  let written = 0;
  db.transaction(() => {
    db.prepare(
      `INSERT INTO mirror_base (id, base_id, status, gap_reason, webhook_id, generation, schema_json, seeded_at, continuous_since, full_count_at, created_at, updated_at)
       VALUES (@id, @base_id, @status, @gap_reason, @webhook_id, @generation, @schema_json, @seeded_at, @continuous_since, @full_count_at, @created_at, @updated_at)`,
    ).run(mirrorBaseRow(baseId, content.schema, seededAt, 'achMirrorHistory1'));
    for (let index = 0; index < size.records; index++) {
      insertVersion.run(baselineVersion(content, index, cellsOf(content, index), seededAt));
      written += 1;
    }
    const random = createRandom(hashSeed('mirror bench history edits'));
    const edits: Array<Cells | undefined> = new Array(size.records);
    const counts = new Uint16Array(size.records).fill(1);
    const deletedAt: Array<string | undefined> = new Array(size.records);
    for (const event of plan.inTimeOrder()) {
      const index = event.record;
      if (deletedAt[index]) continue;
      const at = new Date(event.at).toISOString();
      const recordId = content.ids[index];
      const common = { base_id: baseId, record_id: recordId, at, source: 'client', user_email: 'ann@example.com' };
      counts[index] += 1;
      written += 1;
      if (event.deletion) {
        deletedAt[index] = at;
        insertVersion.run({ ...common, event_type: 'record_delete', keyframe: 0, fields_json: '{}' });
        continue;
      }
      const edit = editedCells(content.schema.tables[index % content.schema.tables.length], random);
      edits[index] = { ...edits[index], ...edit };
      const keyframe = counts[index] % KEYFRAME_EVERY === 0;
      const fields = keyframe ? withChanges(cellsOf(content, index), edits[index]) : edit;
      insertVersion.run({ ...common, event_type: 'record_update', keyframe: keyframe ? 1 : 0, fields_json: canonicalJson(fields) });
    }
    for (let index = 0; index < size.records; index++) {
      const cells = withChanges(cellsOf(content, index), edits[index] ?? {});
      const createdTime = new Date(from - (size.records - index) * 1000).toISOString();
      insertRecord.run(recordRow(content, index, cells, { versions: counts[index], createdTime, deletedAt: deletedAt[index] }));
    }
  })();
  db.pragma('journal_mode = WAL');
  db.close();
  return {
    configId,
    records: size.records,
    versions: written,
    deleted: plan.deletions,
    hotIds: content.ids.slice(0, plan.hot),
    coldIds: content.ids.slice(plan.hot),
    from: seededAt,
    until: new Date(until).toISOString(),
    fileBytes: statSync(databasePath).size,
  };
}

/**
 * Which record each edit goes to and when: half of the edits to the first tenth of the records, half to the rest,
 * instants uniform over the span; 1 % of the cold records deleted in the last two days.
 */
function planEdits(records: number, versions: number, from: number, until: number) {
  const random = createRandom(hashSeed('mirror bench history plan'));
  const hot = Math.max(1, Math.floor(records / 10));
  const deletions = Math.floor((records - hot) / 100);
  const edits = Math.max(0, versions - records - deletions);
  const total = edits + deletions;
  const record = new Int32Array(total);
  const at = new Float64Array(total);
  const hotEdits = Math.floor(edits / 2);
  for (let i = 0; i < edits; i++) {
    record[i] = i < hotEdits ? i % hot : hot + ((i - hotEdits) % (records - hot));
    at[i] = from + 1 + random() * (until - from - 1);
  }
  for (let d = 0; d < deletions; d++) {
    record[edits + d] = hot + d * 100;
    at[edits + d] = until - random() * 2 * DAY_MS;
  }
  return {
    hot,
    deletions,
    *inTimeOrder() {
      const order = Uint32Array.from({ length: total }, (_, i) => i).sort((a, b) => at[a] - at[b]);
      for (const i of order) yield { record: record[i], at: at[i], deletion: i >= edits };
    },
  };
}

/** The account (holding `apiKey`) and its monitoring config of the demo catalog base; returns that base's id. */
async function prepareAccount(databasePath: string, apiKey: string, configId: string, now: Date): Promise<string> {
  const dataSource = await openDatabase({ type: 'sqlite', path: databasePath });
  try {
    const { account } = await new AccountService(dataSource, loadConfig({}).quotas).ensureKey(apiKey, 'bench');
    const demo = createSandbox({ token: 'bench' }).store.listBases();
    const monitored = demo.find((base) => base.name === 'Acme Product Catalog')!;
    const monitoring = demo.find((base) => base.name === 'Change Log')!;
    await dataSource.getRepository(MonitoringConfig).insert({
      id: configId,
      accountId: account.id,
      baseId: monitored.id,
      baseName: monitored.name,
      workspaceId: 'wspMirrorBench001',
      monitoringBaseId: monitoring.id,
      monitoringBaseName: monitoring.name,
      monitoringTableId: 'tblMirrorBench001',
      monitoringTableName: 'Changes',
      scope: 'records_only',
      timezone: 'UTC',
      createdAt: now,
      updatedAt: now,
    });
    return monitored.id;
  } finally {
    await dataSource.destroy();
  }
}
