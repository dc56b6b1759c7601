import type { EntityManager } from 'typeorm';
import {
  insertVersions,
  liveRecordsOfTable,
  recordRows,
  upsertRecords,
  type MirrorRecordRow,
  type MirrorVersionRow,
} from '../../repositories/mirror.repository.js';
import { isRecordChange, type MirrorChange } from './mirror-change.js';
import { applySchemaChange, attachmentFieldIds, type MirrorSchema } from './mirror-schema.js';
import { attachmentStats, canonicalJson, KEYFRAME_EVERY, withChanges, withoutEmpty, type Cells } from './record-state.js';

const RESTAT_CHUNK = 500;

/**
 * Applies changes, in their order, to a mirror's records and schema inside the caller's transaction: each record
 * change becomes a version and the record's new state. `schema` is updated in place; the caller stores it.
 */
export async function applyChanges(manager: EntityManager, baseId: string, schema: MirrorSchema, changes: MirrorChange[]): Promise<void> {
  const records = await recordRows(
    manager,
    baseId,
    changes.filter(isRecordChange).map((change) => change.recordId),
  );
  const touched = new Set<string>();
  const versions: MirrorVersionRow[] = [];
  const restat = new Set<string>();
  for (const change of changes) {
    if (!isRecordChange(change)) {
      if (applySchemaChange(schema, change)) restat.add(change.tableId);
      continue;
    }
    const row = records.get(change.recordId);
    const next = applyRecordChange(baseId, row, change, schema);
    if (!next) continue;
    records.set(change.recordId, next.row);
    touched.add(change.recordId);
    versions.push(next.version);
  }
  // Attachment cells of a table are counted again where its attachment fields changed, before rows are written.
  for (const tableId of restat) {
    const fields = attachmentFieldIds(schema, tableId);
    for (const row of records.values())
      if (row.table_id === tableId) Object.assign(row, statsColumns(JSON.parse(row.fields_json) as Cells, fields));
  }
  await upsertRecords(
    manager,
    [...touched].map((id) => records.get(id)!),
  );
  await insertVersions(manager, versions);
  for (const tableId of restat) await restatTable(manager, baseId, tableId, attachmentFieldIds(schema, tableId), touched);
}

function applyRecordChange(
  baseId: string,
  row: MirrorRecordRow | undefined,
  change: MirrorChange,
  schema: MirrorSchema,
): { row: MirrorRecordRow; version: MirrorVersionRow } | null {
  const attachments = attachmentFieldIds(schema, change.tableId);
  const number = (row?.versions ?? 0) + 1;
  const version = (keyframe: boolean, fields: Cells): MirrorVersionRow => ({
    base_id: baseId,
    record_id: change.recordId,
    at: change.at,
    event_type: change.eventType,
    source: change.source,
    user_email: change.userEmail,
    keyframe: keyframe ? 1 : 0,
    fields_json: canonicalJson(fields),
  });
  if (change.eventType === 'record_create') {
    const state = withoutEmpty(change.cells);
    const next: MirrorRecordRow = {
      base_id: baseId,
      record_id: change.recordId,
      table_id: change.tableId,
      created_time: change.createdTime ?? change.at,
      deleted_at: null,
      deleted_by: null,
      fields_json: canonicalJson(state),
      versions: number,
      ...statsColumns(state, attachments),
    };
    return { row: next, version: version(true, state) };
  }
  // An update or deletion of a record the mirror never saw (created before the seed read and deleted meanwhile)
  // has nothing to build on.
  if (!row || row.deleted_at !== null) return null;
  if (change.eventType === 'record_delete') {
    return {
      row: { ...row, deleted_at: change.at, deleted_by: change.userEmail, versions: number },
      version: version(false, {}),
    };
  }
  const state = withChanges(JSON.parse(row.fields_json) as Cells, change.cells);
  const keyframe = number % KEYFRAME_EVERY === 0;
  return {
    row: { ...row, fields_json: canonicalJson(state), versions: number, ...statsColumns(state, attachments) },
    version: version(keyframe, keyframe ? state : change.cells),
  };
}

function statsColumns(cells: Cells, attachmentFields: readonly string[]) {
  const stats = attachmentStats(cells, attachmentFields);
  return { file_count: stats.fileCount, attachment_bytes: stats.attachmentBytes };
}

/** A table whose attachment fields changed: every record's files and bytes counted again (rare: schema changes). */
async function restatTable(manager: EntityManager, baseId: string, tableId: string, fields: string[], done: Set<string>): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await liveRecordsOfTable(manager, baseId, tableId, after, RESTAT_CHUNK);
    if (!rows.length) return;
    const changed = rows
      .filter((row) => !done.has(row.record_id))
      .map((row) => ({ before: row, after: { ...row, ...statsColumns(JSON.parse(row.fields_json) as Cells, fields) } }))
      .filter(({ before, after }) => before.file_count !== after.file_count || before.attachment_bytes !== after.attachment_bytes)
      .map(({ after }) => after);
    await upsertRecords(manager, changed);
    after = rows.at(-1)!.record_id;
  }
}
