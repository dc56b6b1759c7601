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
import { isRecordChange, type MirrorChange } from './mirror-change.js';
import { applySchemaChange, attachmentFieldIds, schemaOf, type MirrorSchema } from './mirror-schema.js';
import { attachmentStats, canonicalJson, withChanges, withoutEmpty, type Cells } from './record-state.js';

export type SeedOutcome = 'live' | 'gap' | 'overtaken' | 'no-mirror' | 'not-watched';

/** A seed's read of the tables: what it staged, why it stopped, and its writes one at a time. */
interface SeedReading {
  records: number;
  overtaken: boolean;
  failure: unknown;
  stop: AbortController;
  writes: KeyedMutex;
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
 * Seeds a mirror (ARCHITECTURE flow "mirror"): reads the schema and every table in full (`ceil(n/100)` list requests a
 * table) into staging rows, while the ingestion keeps the changes that arrive meanwhile as pending; then, in one
 * transaction, applies the pending changes over the read, records a `baseline` version for every record that is new
 * or differs from the mirror and a deletion for every record the read did not find, and says `live`. A webhook
 * re-created during the read means changes may be missing: the mirror says `gap` and is seeded again.
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
    };
    const limit = pLimit(TABLES_AT_ONCE);
    await Promise.allSettled(
      schema.tables.map((table) => limit(() => this.readTable(upstream, baseId, schema, table.id, generation, keepAlive, reading))),
    );
    if (reading.overtaken) return 'overtaken';
    if (reading.failure !== undefined) throw reading.failure;
    const completing = Date.now();
    const outcome = await this.dataSource.transaction((manager) => this.complete(manager, baseId, generation, schema));
    const ms = Date.now() - startedAt;
    this.logger.info({ baseId, records: reading.records, outcome, ms, completeMs: Date.now() - completing }, 'mirror seeded');
    return outcome;
  }

  /**
   * One table's pages in order into the staging rows, one page's write at a time across tables (`keepAlive` with it).
   * The first failure, or a newer seed, stops the other tables' listings.
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
    if (reading.stop.signal.aborted) return;
    try {
      for await (const page of upstream.listRecordPages(baseId, tableId, options, reading.stop.signal)) {
        if (reading.stop.signal.aborted) return;
        if (!(await this.isCurrent(baseId, generation))) {
          reading.overtaken = true;
          reading.stop.abort();
          return;
        }
        await reading.writes.run(baseId, async () => {
          await this.dataSource.transaction((manager) => this.putPage(manager, baseId, tableId, attachmentFieldIds(schema, tableId), page));
          await keepAlive();
        });
        reading.records += page.records.length;
      }
    } catch (error) {
      if (reading.stop.signal.aborted) return;
      reading.failure = error;
      reading.stop.abort(error);
    }
  }

  private async putPage(
    manager: EntityManager,
    baseId: string,
    tableId: string,
    attachments: string[],
    page: RecordListPage,
  ): Promise<void> {
    if (page.restarted) await clearSeedTable(manager, baseId, tableId);
    await putSeedRecords(
      manager,
      page.records.map((record) =>
        seedRow(baseId, record.id, tableId, new Date(record.createdTime).toISOString(), withoutEmpty(record.fields), attachments),
      ),
    );
  }

  /** Marks the mirror `seeding` under a new generation; changes ingested from now on wait as pending. */
  private start(baseId: string, webhookId: string, schema: MirrorSchema): Promise<number | null> {
    return this.dataSource.transaction(async (manager) => {
      const now = new Date();
      if (!(await lockMirror(manager, baseId, now))) return null;
      const mirror = (await manager.findOneBy(MirrorBase, { baseId }))!;
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

  private async isCurrent(baseId: string, generation: number): Promise<boolean> {
    const mirror = await this.dataSource.manager.findOneBy(MirrorBase, { baseId });
    return mirror?.generation === generation && mirror.status === 'seeding';
  }

  private async complete(manager: EntityManager, baseId: string, generation: number, schema: MirrorSchema): Promise<SeedOutcome> {
    const now = new Date();
    if (!(await lockMirror(manager, baseId, now))) return 'no-mirror';
    const mirror = (await manager.findOneBy(MirrorBase, { baseId }))!;
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
    await this.applyPending(manager, baseId, schema);
    const at = now.toISOString();
    await insertBaselineVersions(manager, baseId, at);
    await mergeSeedRecords(manager, baseId);
    await markUnseenDeleted(manager, baseId, at);
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
   * may have changed a table's attachment fields has that table's staging rows counted again.
   */
  private async applyPending(manager: EntityManager, baseId: string, schema: MirrorSchema): Promise<void> {
    const changes = (await pendingChanges(manager, baseId)) as MirrorChange[];
    if (!changes.length) return;
    const rows = await seedRecordRows(
      manager,
      baseId,
      changes.filter(isRecordChange).map((c) => c.recordId),
    );
    const deleted = new Set<string>();
    const restat = new Set<string>();
    const changed = new Set<string>();
    for (const change of changes) {
      if (!isRecordChange(change)) {
        if (applySchemaChange(schema, change)) restat.add(change.tableId);
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
    for (const tableId of restat) await this.restatTable(manager, baseId, tableId, attachmentFieldIds(schema, tableId));
  }

  private async restatTable(manager: EntityManager, baseId: string, tableId: string, attachments: string[]): Promise<void> {
    for (let after = ''; ; ) {
      const rows = await seedRowsOfTable(manager, baseId, tableId, after, RESTAT_CHUNK);
      if (!rows.length) return;
      await putSeedRecords(
        manager,
        rows.map((row) => seedRow(baseId, row.record_id, tableId, row.created_time, JSON.parse(row.fields_json) as Cells, attachments)),
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
