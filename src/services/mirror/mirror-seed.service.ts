import pLimit from 'p-limit';
import type { DataSource, EntityManager } from 'typeorm';
import { MirrorBase, UpstreamWatch } from '../../entities/index.js';
import type { Logger } from '../../logger.js';
import {
  clearSeedState,
  clearSeedTable,
  deleteSeedRecords,
  insertBaselineVersions,
  lockMirror,
  markUnseenDeleted,
  mergeSeedRecords,
  pendingChanges,
  putSeedRecords,
  seedRecordRows,
  seedRowsOfTable,
  type SeedRecordRow,
} from '../../repositories/mirror.repository.js';
import { withCallPurpose } from '../../upstream/call-purpose.js';
import type { UpstreamClient } from '../../upstream/client.js';
import type { RecordListPage } from '../../upstream/types.js';
import type { UpstreamAccess } from '../connections/upstream-access.js';
import { KeyedMutex } from '../keyed-mutex.js';
import { applyChanges } from './mirror-apply.js';
import { isRecordChange, type MirrorChange } from './mirror-change.js';
import { applySchemaChange, attachmentFieldIds, schemaOf, type MirrorSchema } from './mirror-schema.js';
import { attachmentStats, canonicalJson, withChanges, withoutEmpty, type Cells } from './record-state.js';

export type SeedOutcome = 'live' | 'gap' | 'overtaken' | 'no-mirror' | 'not-watched';

/** A seed's read of the tables: what it staged, why it stopped, its writes one at a time, and the tables it finished. */
interface SeedReading {
  records: number;
  overtaken: boolean;
  failure: unknown;
  stop: AbortController;
  writes: KeyedMutex;
  /** Tables merged into the mirror as their listing ended, before any of their changes arrived. */
  finished: Set<string>;
  /** Writes of tables whose listing ended, awaited before the seed completes. */
  lastWrites: Array<Promise<void>>;
}

/** Staging rows whose files are counted again at a time, after a schema change made while the seed read. */
const RESTAT_CHUNK = 500;

/**
 * Tables listed at once: one for each request of the base's budget of 5 a second, so that the budget is spent while
 * each listing waits for its answer and writes its page. With all of a large base's tables at once, each table's next
 * page would wait behind all the others, long enough for its listing's offset to expire upstream.
 */
const TABLES_AT_ONCE = 5;

/**
 * Pages a table's listing may read ahead of their writes: when a write takes longer (another table finished, a busy
 * database), the listings keep spending the base's budget.
 */
const PAGES_AHEAD = 3;

/**
 * Seeds a mirror (ARCHITECTURE flow "mirror"): reads the schema and every table in full (`ceil(n/100)` list requests a
 * table), while the ingestion keeps the changes that arrive meanwhile as pending. Each page goes into staging rows and
 * into the mirror as it arrives: a `baseline` version for every record that is new or differs from the mirror. A table
 * whose listing ends before any change of it has arrived is finished at once: a deletion for every record the read did
 * not find, its staging rows cleared. The rest completes in one transaction: the pending changes applied, over the
 * staging rows of the tables not finished (compared with the mirror again) and as versions over those finished, the
 * deletions, and the mirror says `live`. A webhook re-created during the read means changes may be missing: the mirror
 * says `gap` and is seeded again.
 */
export class MirrorSeedService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: UpstreamAccess,
    private readonly logger: Logger,
  ) {}

  /** `keepAlive` is called after each page's write (the job's lock), never two at once. */
  seed(baseId: string, keepAlive: () => Promise<void> = async () => undefined): Promise<SeedOutcome> {
    return withCallPurpose('audit', () => this.run(baseId, keepAlive));
  }

  private async run(baseId: string, keepAlive: () => Promise<void>): Promise<SeedOutcome> {
    const watch = await this.dataSource.manager.findOneBy(UpstreamWatch, { baseId });
    if (watch?.status !== 'active') return 'not-watched';
    const upstream = await this.access.forAccount(watch.accountId);
    const schema = schemaOf(await upstream.getBaseSchema(baseId));
    const generation = await this.start(baseId, watch.webhookId, schema);
    if (generation === null) return 'no-mirror';
    const startedAt = Date.now();
    const reading: SeedReading = {
      records: 0,
      overtaken: false,
      failure: undefined,
      stop: new AbortController(),
      writes: new KeyedMutex(),
      finished: new Set(),
      lastWrites: [],
    };
    const limit = pLimit(TABLES_AT_ONCE);
    await Promise.allSettled(
      schema.tables.map((table) => limit(() => this.readTable(upstream, baseId, schema, table.id, generation, keepAlive, reading))),
    );
    await Promise.all(reading.lastWrites);
    if (reading.overtaken) return 'overtaken';
    if (reading.failure !== undefined) throw reading.failure;
    const completing = Date.now();
    const outcome = await this.dataSource.transaction((manager) => this.complete(manager, baseId, generation, schema, reading.finished));
    const ms = Date.now() - startedAt;
    const finishedEarly = reading.finished.size;
    this.logger.info(
      { baseId, records: reading.records, outcome, ms, completeMs: Date.now() - completing, finishedEarly },
      'mirror seeded',
    );
    return outcome;
  }

  /**
   * One table's pages in order into the staging rows and the mirror, one page's write at a time across tables
   * (`keepAlive` with it), then the table finished if none of its changes waits. The first failure, or a newer seed,
   * stops the other tables' listings.
   */
  private async readTable(
    upstream: UpstreamClient,
    baseId: string,
    schema: MirrorSchema,
    tableId: string,
    generation: number,
    keepAlive: () => Promise<void>,
    reading: SeedReading,
  ): Promise<void> {
    const options = { returnFieldsByFieldId: true, pageSize: 100 };
    const attachments = attachmentFieldIds(schema, tableId);
    const fail = (error: unknown) => {
      if (reading.stop.signal.aborted) return;
      reading.failure = error;
      reading.stop.abort(error);
    };
    // Writes never reject: a failed one stops the listings through `fail`.
    const writing: Array<Promise<void>> = [];
    const write = (work: () => Promise<void>) => {
      writing.push(reading.writes.run(baseId, work).catch(fail));
      return writing.length > PAGES_AHEAD ? writing.shift() : undefined;
    };
    if (reading.stop.signal.aborted) return;
    try {
      for await (const page of upstream.listRecordPages(baseId, tableId, options, reading.stop.signal)) {
        if (reading.stop.signal.aborted) break;
        await write(async () => {
          if (reading.stop.signal.aborted) return;
          const current = await this.dataSource.transaction((manager) =>
            this.putPage(manager, baseId, generation, tableId, attachments, page),
          );
          if (!current) {
            reading.overtaken = true;
            reading.stop.abort();
            return;
          }
          reading.records += page.records.length;
          await keepAlive();
        });
      }
    } catch (error) {
      fail(error);
    }
    await write(async () => {
      if (reading.stop.signal.aborted) return;
      const started = Date.now();
      const finished = await this.dataSource.transaction((manager) => this.finishTable(manager, baseId, generation, tableId));
      if (finished) reading.finished.add(tableId);
      this.logger.debug({ baseId, tableId, finished, ms: Date.now() - started }, 'mirror seed: table listed');
    });
    // The next table starts listing while this one's last writes wait their turn.
    reading.lastWrites.push(...writing);
  }

  /**
   * A page into the staging rows, and merged into the mirror at once: a `baseline` version for each of its records
   * that is new or differs. The completion compares the staging rows again, so a change that arrives after a record
   * was read is still applied over it. False when a newer seed (or a gap) took over the mirror.
   */
  private async putPage(
    manager: EntityManager,
    baseId: string,
    generation: number,
    tableId: string,
    attachments: string[],
    page: RecordListPage,
  ): Promise<boolean> {
    const now = new Date();
    if (!(await this.isCurrent(manager, baseId, generation, now))) return false;
    if (page.restarted) await clearSeedTable(manager, baseId, tableId);
    if (!page.records.length) return true;
    await putSeedRecords(
      manager,
      page.records.map((record) =>
        seedRow(baseId, record.id, tableId, new Date(record.createdTime).toISOString(), withoutEmpty(record.fields), attachments),
      ),
    );
    const scope = { recordIds: page.records.map((record) => record.id) };
    await insertBaselineVersions(manager, baseId, now.toISOString(), scope);
    await mergeSeedRecords(manager, baseId, scope);
    return true;
  }

  /**
   * A table whose listing ended (its pages merged as they came): its records the read did not find are marked deleted
   * and its staging rows cleared, unless one of its changes already waits. Its later changes are applied over it as
   * versions when the seed completes; otherwise its staging rows wait for the completion, with its changes.
   */
  private async finishTable(manager: EntityManager, baseId: string, generation: number, tableId: string): Promise<boolean> {
    const now = new Date();
    if (!(await this.isCurrent(manager, baseId, generation, now))) return false;
    const waiting = (await pendingChanges(manager, baseId)) as MirrorChange[];
    if (waiting.some((change) => change.tableId === tableId)) return false;
    await markUnseenDeleted(manager, baseId, now.toISOString(), { tableId });
    await clearSeedTable(manager, baseId, tableId);
    return true;
  }

  /** Locks the mirror, and says whether this seed (`generation`) still reads it. */
  private async isCurrent(manager: EntityManager, baseId: string, generation: number, now: Date): Promise<boolean> {
    const mirror = await lockMirror(manager, baseId, now);
    return mirror?.generation === generation && mirror.status === 'seeding';
  }

  /** Marks the mirror `seeding` under a new generation; changes ingested from now on wait as pending. */
  private start(baseId: string, webhookId: string, schema: MirrorSchema): Promise<number | null> {
    return this.dataSource.transaction(async (manager) => {
      const now = new Date();
      const mirror = await lockMirror(manager, baseId, now);
      if (!mirror) return null;
      const generation = mirror.generation + 1;
      await manager.update(
        MirrorBase,
        { id: mirror.id },
        { status: 'seeding', generation, webhookId, schemaJson: JSON.stringify(schema), updatedAt: now },
      );
      await clearSeedState(manager, baseId);
      return generation;
    });
  }

  private async complete(
    manager: EntityManager,
    baseId: string,
    generation: number,
    schema: MirrorSchema,
    finished: ReadonlySet<string>,
  ): Promise<SeedOutcome> {
    const now = new Date();
    const mirror = await lockMirror(manager, baseId, now);
    if (!mirror) return 'no-mirror';
    if (mirror.generation !== generation || mirror.status !== 'seeding') return mirror.status === 'gap' ? 'gap' : 'overtaken';
    const watch = await manager.findOneBy(UpstreamWatch, { baseId });
    if (!watch || watch.webhookId !== mirror.webhookId) {
      await manager.update(
        MirrorBase,
        { id: mirror.id },
        { status: 'gap', gapReason: 'the upstream webhook was re-created', updatedAt: now },
      );
      return 'gap';
    }
    await this.applyPending(manager, baseId, schema, finished);
    const at = now.toISOString();
    const scope = { exceptTables: [...finished] };
    await insertBaselineVersions(manager, baseId, at, scope);
    await mergeSeedRecords(manager, baseId, scope);
    await markUnseenDeleted(manager, baseId, at, scope);
    await clearSeedState(manager, baseId);
    await manager.update(
      MirrorBase,
      { id: mirror.id },
      { status: 'live', seededAt: mirror.seededAt ?? now, continuousSince: now, schemaJson: JSON.stringify(schema), updatedAt: now },
    );
    return 'live';
  }

  /**
   * The changes that arrived during the read, in order, over the staging rows (and the schema). A schema change that
   * may have changed a table's attachment fields has that table's staging rows counted again. The changes of tables
   * already finished are applied to the mirror as the live ingestion applies them: versions after their baseline.
   */
  private async applyPending(manager: EntityManager, baseId: string, schema: MirrorSchema, finished: ReadonlySet<string>): Promise<void> {
    const pending = (await pendingChanges(manager, baseId)) as MirrorChange[];
    await applyChanges(
      manager,
      baseId,
      schema,
      pending.filter((change) => finished.has(change.tableId)),
    );
    const changes = pending.filter((change) => !finished.has(change.tableId));
    if (!changes.length) return;
    const rows = await seedRecordRows(
      manager,
      baseId,
      changes.filter(isRecordChange).map((c) => c.recordId),
    );
    const deleted = new Set<string>();
    // Tables to count again, with the fields deleted from each (the rows read before a deletion still hold them).
    const restat = new Map<string, Set<string>>();
    const changed = new Set<string>();
    for (const change of changes) {
      if (!isRecordChange(change)) {
        if (!applySchemaChange(schema, change)) continue;
        const removed = restat.get(change.tableId) ?? new Set<string>();
        if (change.eventType === 'column_delete') removed.add(change.recordId);
        restat.set(change.tableId, removed);
        continue;
      }
      if (change.eventType === 'record_delete') {
        rows.delete(change.recordId);
        deleted.add(change.recordId);
        continue;
      }
      const row = rows.get(change.recordId);
      const attachments = attachmentFieldIds(schema, change.tableId);
      if (change.eventType === 'record_create') {
        deleted.delete(change.recordId);
        rows.set(
          change.recordId,
          seedRow(baseId, change.recordId, change.tableId, change.createdTime ?? change.at, withoutEmpty(change.cells), attachments),
        );
        changed.add(change.recordId);
      } else if (row) {
        const cells = withChanges(JSON.parse(row.fields_json) as Cells, change.cells);
        rows.set(change.recordId, seedRow(baseId, change.recordId, row.table_id, row.created_time, cells, attachments));
        changed.add(change.recordId);
      }
    }
    await deleteSeedRecords(manager, baseId, [...deleted]);
    await putSeedRecords(
      manager,
      [...changed].filter((id) => rows.has(id)).map((id) => rows.get(id)!),
    );
    for (const [tableId, removed] of restat) await this.restatTable(manager, baseId, tableId, attachmentFieldIds(schema, tableId), removed);
  }

  /** A table's staging rows without the deleted fields' cells, their files counted over its attachment fields now. */
  private async restatTable(
    manager: EntityManager,
    baseId: string,
    tableId: string,
    attachments: string[],
    removed: ReadonlySet<string>,
  ): Promise<void> {
    const cleared = Object.fromEntries([...removed].map((fieldId) => [fieldId, null]));
    const without = (cells: Cells) => (removed.size ? withChanges(cells, cleared) : cells);
    for (let after = ''; ; ) {
      const rows = await seedRowsOfTable(manager, baseId, tableId, after, RESTAT_CHUNK);
      if (!rows.length) return;
      await putSeedRecords(
        manager,
        rows.map((row) =>
          seedRow(baseId, row.record_id, tableId, row.created_time, without(JSON.parse(row.fields_json) as Cells), attachments),
        ),
      );
      after = rows.at(-1)!.record_id;
    }
  }
}

/** A staging row: the record's cells as stored, and its files counted over the table's attachment fields. */
function seedRow(
  baseId: string,
  recordId: string,
  tableId: string,
  createdTime: string,
  cells: Cells,
  attachments: string[],
): SeedRecordRow {
  const stats = attachmentStats(cells, attachments);
  return {
    base_id: baseId,
    record_id: recordId,
    table_id: tableId,
    created_time: createdTime,
    fields_json: canonicalJson(cells),
    file_count: stats.fileCount,
    attachment_bytes: stats.attachmentBytes,
  };
}
