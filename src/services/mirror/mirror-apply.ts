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
 * change becomes a version and the record's new state. A deleted field leaves every live record of its table that
 * held a value with a `column_delete` version without it (deleted records keep their last values). `schema` is
 * updated in place; the caller stores it.
 */
export async function applyChanges(manager: EntityManager, baseId: string, schema: MirrorSchema, changes: MirrorChange[]): Promise<void> {
  const records = await recordRows(
    manager,
    baseId,
    changes.filter(isRecordChange).map((change) => change.recordId),
  );
  const touched = new Set<string>();
  const versions: MirrorVersionRow[] = [];
  const swept = new Map<string, MirrorChange[]>();
  const keep = (next: { row: MirrorRecordRow; version: MirrorVersionRow } | null) => {
    if (!next) return;
    records.set(next.row.record_id, next.row);
    touched.add(next.row.record_id);
    versions.push(next.version);
  };
  for (const change of changes) {
    if (isRecordChange(change)) {
      keep(applyRecordChange(baseId, records.get(change.recordId), change, schema));
      continue;
    }
    if (!applySchemaChange(schema, change)) continue;
    const removals = swept.get(change.tableId) ?? [];
    swept.set(change.tableId, removals);
    if (change.eventType !== 'column_delete') continue;
    removals.push(change);
    // Records this batch has read are changed here, in order with their own changes; the rest by the sweep below.
    for (const row of records.values()) if (row.table_id === change.tableId) keep(withoutField(baseId, row, change));
  }
  // Attachment cells of a table are counted again where its attachment fields changed, before rows are written.
  for (const tableId of swept.keys()) {
    const fields = attachmentFieldIds(schema, tableId);
    for (const row of records.values())
      if (row.table_id === tableId) Object.assign(row, statsColumns(JSON.parse(row.fields_json) as Cells, fields));
  }
  await upsertRecords(
    manager,
    [...touched].map((id) => records.get(id)!),
  );
  await insertVersions(manager, versions);
  for (const [tableId, removals] of swept)
    await sweepTable(manager, baseId, tableId, attachmentFieldIds(schema, tableId), removals, touched);
}

interface AppliedChange {
  row: MirrorRecordRow;
  version: MirrorVersionRow;
}

function versionRow(baseId: string, change: MirrorChange, keyframe: boolean, fields: Cells): MirrorVersionRow {
  return {
    base_id: baseId,
    record_id: change.recordId,
    at: change.at,
    event_type: change.eventType,
    source: change.source,
    user_email: change.userEmail,
    keyframe: keyframe ? 1 : 0,
    fields_json: canonicalJson(fields),
  };
}

function applyRecordChange(
  baseId: string,
  row: MirrorRecordRow | undefined,
  change: MirrorChange,
  schema: MirrorSchema,
): AppliedChange | null {
  const attachments = attachmentFieldIds(schema, change.tableId);
  const number = (row?.versions ?? 0) + 1;
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
    return { row: next, version: versionRow(baseId, change, true, state) };
  }
  // An update or deletion of a record the mirror never saw (created before the seed read and deleted meanwhile)
  // has nothing to build on.
  if (!row || row.deleted_at !== null) return null;
  if (change.eventType === 'record_delete') {
    return {
      row: { ...row, deleted_at: change.at, deleted_by: change.userEmail, versions: number },
      version: versionRow(baseId, change, false, {}),
    };
  }
  const state = withChanges(JSON.parse(row.fields_json) as Cells, change.cells);
  const keyframe = number % KEYFRAME_EVERY === 0;
  return {
    row: { ...row, fields_json: canonicalJson(state), versions: number, ...statsColumns(state, attachments) },
    version: versionRow(baseId, change, keyframe, keyframe ? state : change.cells),
  };
}

/** A live record without the cell of a field deleted upstream (`change.recordId` holds the field); null when it had none. */
function withoutField(baseId: string, row: MirrorRecordRow, change: MirrorChange): AppliedChange | null {
  const fieldId = change.recordId;
  const cells = JSON.parse(row.fields_json) as Cells;
  if (row.deleted_at !== null || !(fieldId in cells)) return null;
  const state = withChanges(cells, { [fieldId]: null });
  const number = row.versions + 1;
  const keyframe = number % KEYFRAME_EVERY === 0;
  return {
    // Files and bytes are counted again by the caller, which knows the table's attachment fields after the change.
    row: { ...row, fields_json: canonicalJson(state), versions: number },
    version: versionRow(baseId, { ...change, recordId: row.record_id }, keyframe, keyframe ? state : { [fieldId]: null }),
  };
}

function statsColumns(cells: Cells, attachmentFields: readonly string[]) {
  const stats = attachmentStats(cells, attachmentFields);
  return { file_count: stats.fileCount, attachment_bytes: stats.attachmentBytes };
}

/**
 * The records of a table whose schema changed that this batch did not read: deleted fields' cells removed (a version
 * each) and files and bytes counted again where the attachment fields changed (rare: schema changes).
 */
async function sweepTable(
  manager: EntityManager,
  baseId: string,
  tableId: string,
  fields: string[],
  removals: MirrorChange[],
  done: Set<string>,
): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await liveRecordsOfTable(manager, baseId, tableId, after, RESTAT_CHUNK);
    if (!rows.length) return;
    const changed: MirrorRecordRow[] = [];
    const versions: MirrorVersionRow[] = [];
    for (const before of rows) {
      if (done.has(before.record_id)) continue;
      let row = before;
      for (const removal of removals) {
        const next = withoutField(baseId, row, removal);
        if (!next) continue;
        row = next.row;
        versions.push(next.version);
      }
      row = { ...row, ...statsColumns(JSON.parse(row.fields_json) as Cells, fields) };
      const same =
        row.fields_json === before.fields_json && row.file_count === before.file_count && row.attachment_bytes === before.attachment_bytes;
      if (!same) changed.push(row);
    }
    await upsertRecords(manager, changed);
    await insertVersions(manager, versions);
    after = rows.at(-1)!.record_id;
  }
}
