import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { MirrorRecordRow, MirrorVersionRow } from '../../src/repositories/mirror.repository.js';
import { insertRows } from '../../src/repositories/run-sql.js';
import { attachmentFieldIds, type MirrorSchema } from '../../src/services/mirror/mirror-schema.js';
import { attachmentStats, canonicalJson, withoutEmpty, type Cells } from '../../src/services/mirror/record-state.js';
import { recordCells, recordIds } from './mirror-rows.js';

/** A mirror's rows written straight into its tables, in the repository's format (mirror.repository.ts, record-state.ts). */
export interface MirrorContent {
  baseId: string;
  schema: MirrorSchema;
  /** Record ids; record i belongs to table i % tables. */
  ids: string[];
}

export function mirrorBaseRow(baseId: string, schema: MirrorSchema, seededAt: string, webhookId: string): Record<string, unknown> {
  return {
    id: randomUUID(),
    base_id: baseId,
    status: 'live',
    gap_reason: null,
    webhook_id: webhookId,
    generation: 1,
    schema_json: JSON.stringify(schema),
    seeded_at: seededAt,
    continuous_since: seededAt,
    full_count_at: null,
    created_at: seededAt,
    updated_at: seededAt,
  };
}

/** The mirror_record row of a record holding `cells` now. */
export function recordRow(
  content: MirrorContent,
  index: number,
  cells: Cells,
  state: { versions: number; createdTime: string; deletedAt?: string | null },
): MirrorRecordRow {
  const table = content.schema.tables[index % content.schema.tables.length];
  const stats = attachmentStats(cells, attachmentFieldIds(content.schema, table.id));
  return {
    base_id: content.baseId,
    record_id: content.ids[index],
    table_id: table.id,
    created_time: state.createdTime,
    deleted_at: state.deletedAt ?? null,
    deleted_by: state.deletedAt ? 'someone@example.com' : null,
    fields_json: canonicalJson(cells),
    versions: state.versions,
    file_count: stats.fileCount,
    attachment_bytes: stats.attachmentBytes,
  };
}

/** The seed's `baseline` version of a record: the whole record, a keyframe. */
export function baselineVersion(content: MirrorContent, index: number, cells: Cells, at: string): MirrorVersionRow {
  return {
    base_id: content.baseId,
    record_id: content.ids[index],
    at,
    event_type: 'baseline',
    source: 'unknown',
    user_email: null,
    keyframe: 1,
    fields_json: canonicalJson(cells),
  };
}

export function cellsOf(content: MirrorContent, index: number): Cells {
  return withoutEmpty(recordCells(content.schema.tables[index % content.schema.tables.length], index));
}

/**
 * A live mirror of `records` records as a seed leaves it (each record and its baseline version), through the
 * DataSource: the same rows on SQLite and PostgreSQL. Returns the content and the seed's instant.
 */
export async function fillSeededMirror(
  dataSource: DataSource,
  baseId: string,
  schema: MirrorSchema,
  records: number,
  webhookId: string,
): Promise<{ content: MirrorContent; seededAt: string }> {
  const content: MirrorContent = { baseId, schema, ids: recordIds(records, baseId) };
  const seededAt = new Date(Date.now() - 86_400_000).toISOString();
  await dataSource.transaction(async (manager) => {
    await insertRows(manager, 'mirror_base', [mirrorBaseRow(baseId, schema, seededAt, webhookId)]);
    const chunk = 200;
    for (let start = 0; start < records; start += chunk) {
      const indices = Array.from({ length: Math.min(chunk, records - start) }, (_, i) => start + i);
      const cells = indices.map((index) => cellsOf(content, index));
      const rows = indices.map((index, i) => recordRow(content, index, cells[i], { versions: 1, createdTime: seededAt }));
      await insertRows(manager, 'mirror_record', rows as unknown as Array<Record<string, unknown>>, 50);
      const versions = indices.map((index, i) => baselineVersion(content, index, cells[i], seededAt));
      await insertRows(manager, 'mirror_version', versions as unknown as Array<Record<string, unknown>>, 100);
    }
  });
  return { content, seededAt };
}
