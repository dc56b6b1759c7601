import { dayRangeInstants } from '../calendar.js';
import { z } from 'zod';
import type { DataSource } from 'typeorm';
import { MirrorBase, type MonitoringConfig } from '../../entities/index.js';
import { conflict, invalidRequest, notFound } from '../../errors.js';
import { EntityLookup } from '../../repositories/entity-lookup.js';
import {
  countDeletedRecords,
  countVersions,
  deletedRecordRows,
  mirrorCounts,
  recordHead,
  recordRow,
  searchRecordRows,
  versionsBack,
  type StoredVersionRow,
} from '../../repositories/mirror.repository.js';
import type { MonitoringConfigService } from '../monitoring-config.service.js';
import type { SignedCursorCodec, SignedCursors } from '../signed-cursor.js';
import { SEQ_POSITION } from '../signed-cursor.js';
import { SEARCH_LIMIT, type DeletedRecordsInput, type RecordSearchInput } from './mirror.input.js';
import { parseSchema, type MirrorField } from './mirror-schema.js';
import {
  foldLast,
  foldVersions,
  foldVersionsToJson,
  KEYFRAME_EVERY,
  type Cells,
  type FoldedVersion,
  type StoredVersion,
} from './record-state.js';

export interface MirrorState {
  status: MirrorBase['status'];
  seededAt: Date | null;
  continuousSince: Date | null;
  tables: Array<{ tableId: string; tableName: string; recordCount: number; primaryFieldId: string; fields: MirrorField[] }>;
}

export interface MirroredRecord {
  id: string;
  tableId: string;
  createdTime: string;
  deletedAt: string | null;
  fields: Cells;
}

export interface RecordVersion {
  at: string;
  eventType: string;
  source: string;
  userEmail: string | null;
  /** The whole record after this version, as JSON text (`{}` for a deletion): a page's body embeds it as it is. */
  fieldsJson: string;
}

export interface HistoryPage {
  recordId: string;
  tableId: string;
  versions: RecordVersion[];
  /** The newest version's seq past this page (for GraphQL's cursors). */
  nextSeq?: number;
  nextCursor?: string;
}

export interface DeletedRecord {
  id: string;
  tableId: string;
  deletedAt: string;
  deletedBy: string | null;
  fields: Cells;
}

/** A record found by its primary field's value or its id: what a picker offers. */
export interface RecordMatch {
  id: string;
  tableId: string;
  /** The primary field's value as text (a list's items joined by ", "); null when it is empty. */
  primaryValue: string | null;
}

/** Where a page of deleted records starts: after this record, newest first. */
export const DELETED_POSITION = z.object({ deletedAt: z.string().max(30), recordId: z.string().max(32) });
export type DeletedPosition = z.infer<typeof DELETED_POSITION>;

export type DeletedRecordsFilter = Pick<DeletedRecordsInput, 'tableId' | 'from' | 'to' | 'timezone'>;

/**
 * The mirror as an account reads it, through one of its monitoring configs (404 for another account's, or one whose
 * base its connection no longer sees): state, a record at an instant, its versions, the deleted records.
 */
export class MirrorReadService {
  private readonly historyCursors: SignedCursorCodec<number>;
  private readonly deletedCursors: SignedCursorCodec<DeletedPosition>;
  /** The base's mirror, read by every request: without the query builder. */
  private readonly mirrorByBase: EntityLookup<MirrorBase>;
  /** The same without its schema (tens of KB of JSON), for the reads of one record. */
  private readonly mirrorHeadByBase: EntityLookup<MirrorBase, 'schemaJson'>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly configs: MonitoringConfigService,
    cursors: SignedCursors,
    private readonly retentionDays: number,
  ) {
    this.mirrorByBase = new EntityLookup(dataSource, MirrorBase, ['baseId']);
    this.mirrorHeadByBase = new EntityLookup(dataSource, MirrorBase, ['baseId'], ['schemaJson']);
    this.historyCursors = cursors.codec('record history nextCursor', SEQ_POSITION, 'cursor is not a nextCursor of this record’s history');
    this.deletedCursors = cursors.codec(
      'deleted records nextCursor',
      DELETED_POSITION,
      'cursor is not a nextCursor of these deleted records',
    );
  }

  /** The config and its base's mirror; the mirror is made when its config is, so none means it was just removed. */
  mirrorOf(accountId: string, configId: string): Promise<{ config: MonitoringConfig; mirror: MirrorBase }> {
    return this.through(this.mirrorByBase, accountId, configId);
  }

  /** mirrorOf without the schema. */
  private async headOf(accountId: string, configId: string): Promise<MirrorHead> {
    return (await this.through(this.mirrorHeadByBase, accountId, configId)).mirror;
  }

  private async through<M>(
    lookup: { one(baseId: string): Promise<M | null> },
    accountId: string,
    configId: string,
  ): Promise<{ config: MonitoringConfig; mirror: M }> {
    const config = await this.configs.get(accountId, configId);
    const mirror = await lookup.one(config.baseId);
    if (!mirror) throw notFound('Mirror');
    return { config, mirror };
  }

  async state(accountId: string, configId: string): Promise<MirrorState> {
    const { mirror } = await this.mirrorOf(accountId, configId);
    return this.stateOf(mirror);
  }

  async stateOf(mirror: MirrorBase): Promise<MirrorState> {
    const counts = new Map((await mirrorCounts(this.dataSource, mirror.baseId)).map((count) => [count.tableId, count.recordCount]));
    const seeded = mirror.seededAt !== null;
    return {
      status: mirror.status,
      seededAt: mirror.seededAt,
      continuousSince: mirror.continuousSince,
      tables: parseSchema(mirror.schemaJson).tables.map((table) => ({
        tableId: table.id,
        tableName: table.name,
        recordCount: seeded ? (counts.get(table.id) ?? 0) : 0,
        primaryFieldId: table.primaryFieldId,
        fields: table.fields,
      })),
    };
  }

  /** The record as it stood at `at` (default now); 404 when it did not exist yet or is unknown. */
  async record(accountId: string, configId: string, recordId: string, at?: string): Promise<MirroredRecord> {
    const mirror = await this.headOf(accountId, configId);
    if (at === undefined) {
      this.requireSeeded(mirror);
      const row = await recordRow(this.dataSource, mirror.baseId, recordId);
      if (!row) throw notFound('Record');
      return {
        id: recordId,
        tableId: row.table_id,
        createdTime: row.created_time,
        deletedAt: row.deleted_at,
        fields: JSON.parse(row.fields_json) as Cells,
      };
    }
    const instant = this.checkedInstant(mirror, at);
    const row = await recordHead(this.dataSource, mirror.baseId, recordId);
    if (!row) throw notFound('Record');
    const last = foldLast(await this.fromKeyframe(mirror.baseId, recordId, { at: instant }));
    if (!last) throw notFound('Record');
    const deletion = last.eventType === 'record_delete' ? last : undefined;
    // The state of a deleted record is what it held before its deletion, folded into `state` already.
    return { id: recordId, tableId: row.table_id, createdTime: row.created_time, deletedAt: deletion?.at ?? null, fields: last.state };
  }

  /**
   * Records not deleted whose primary field's value contains `search` (any case), or whose id starts with it (`rec`
   * and at least 2 more characters, exact case), ordered by that value (lower-cased) then id; at most `limit`.
   * 409 during the first seed. The database narrows (a LIKE on the extracted value) and this checks each candidate
   * exactly: a search with letters SQLite cannot lower-case (beyond ASCII) reads more candidates, in growing pages.
   */
  async searchRecords(
    accountId: string,
    configId: string,
    input: Pick<RecordSearchInput, 'search' | 'tableId'> & { limit?: number },
  ): Promise<RecordMatch[]> {
    const { mirror } = await this.mirrorOf(accountId, configId);
    this.requireSeeded(mirror);
    const search = input.search.trim();
    const limit = Math.min(Math.max(1, Math.trunc(input.limit ?? SEARCH_LIMIT.default)), SEARCH_LIMIT.max);
    const tables = parseSchema(mirror.schemaJson)
      .tables.filter((table) => input.tableId === undefined || table.id === input.tableId)
      .map((table) => ({ tableId: table.id, primaryFieldId: table.primaryFieldId }));
    const needle = search.toLowerCase();
    const idPrefix = /^rec[A-Za-z0-9]{2,14}$/.test(search) ? search : undefined;
    const matches: RecordMatch[] = [];
    let after: { sortKey: string; recordId: string } | undefined;
    for (let page = Math.max(limit, 100); ; page *= 4) {
      const rows = await searchRecordRows(this.dataSource, mirror.baseId, {
        tables,
        pattern: likePattern(needle),
        idPrefix,
        after,
        limit: page,
      });
      for (const row of rows) {
        const primaryValue = primaryText(row.primary_text);
        const found =
          (primaryValue?.toLowerCase().includes(needle) ?? false) || (idPrefix !== undefined && row.record_id.startsWith(idPrefix));
        if (found) matches.push({ id: row.record_id, tableId: row.table_id, primaryValue });
        if (matches.length === limit) return matches;
      }
      const last = rows.at(-1);
      if (!last || rows.length < page) return matches;
      after = { sortKey: last.sort_key, recordId: last.record_id };
    }
  }

  /** Versions newest first, each with the whole record after it (`{}` for a deletion). */
  async historyPage(accountId: string, configId: string, recordId: string, page: { limit: number; cursor?: string }): Promise<HistoryPage> {
    const mirror = await this.headOf(accountId, configId);
    const owner = `${mirror.baseId}:${recordId}`;
    const beforeSeq = page.cursor === undefined ? undefined : this.historyCursors.decode(owner, page.cursor);
    const { seqs: _seqs, ...result } = await this.versionPage(mirror, recordId, page.limit, beforeSeq);
    const nextCursor = result.nextSeq === undefined ? undefined : this.historyCursors.encode(owner, result.nextSeq);
    return { ...result, ...(nextCursor ? { nextCursor } : {}) };
  }

  /** A page of versions before `beforeSeq` (newest first); GraphQL pages with its own cursors over the same seqs. */
  async versionPage(mirror: MirrorHead, recordId: string, limit: number, beforeSeq?: number): Promise<HistoryPage & { seqs: number[] }> {
    // During the first seed a record read so far would show a history that is not there yet, others a 404.
    this.requireSeeded(mirror);
    const row = await recordHead(this.dataSource, mirror.baseId, recordId);
    if (!row) throw notFound('Record');
    const rows = await versionsBack(this.dataSource, mirror.baseId, recordId, { beforeSeq }, limit + 1);
    const shown = rows.slice(0, limit);
    const oldest = shown.at(-1);
    if (!oldest) return { recordId, tableId: row.table_id, versions: [], seqs: [] };
    // From the keyframe at or before the page's oldest version up to its newest: the page's rows, and the older ones
    // back to that keyframe unless the oldest is one.
    const older = oldest.keyframe === 1 ? [] : await this.fromKeyframe(mirror.baseId, recordId, { beforeSeq: oldest.seq }, 0);
    const folded = foldVersionsToJson([...older, ...shown.toReversed().map(toStored)]);
    const bySeq = new Map(folded.map((version) => [version.seq, version]));
    const versions = shown.map((version) => {
      const state = bySeq.get(Number(version.seq));
      return {
        at: version.at,
        eventType: version.event_type,
        source: version.source,
        userEmail: version.user_email,
        fieldsJson: version.event_type === 'record_delete' ? '{}' : (state?.stateJson ?? '{}'),
      };
    });
    return {
      recordId,
      tableId: row.table_id,
      versions,
      seqs: shown.map((version) => Number(version.seq)),
      ...(rows.length > limit ? { nextSeq: Number(oldest.seq) } : {}),
    };
  }

  async deleted(
    accountId: string,
    configId: string,
    input: DeletedRecordsInput,
  ): Promise<{ records: DeletedRecord[]; nextCursor?: string }> {
    const { config, mirror } = await this.mirrorOf(accountId, configId);
    const bounds = deletedBounds(input);
    const after = input.cursor === undefined ? undefined : this.deletedCursors.decode(config.id, input.cursor);
    const { records, hasMore } = await this.deletedAfter(mirror, bounds, input.limit, after);
    const last = records.at(-1);
    const nextCursor =
      hasMore && last ? this.deletedCursors.encode(config.id, { deletedAt: last.deletedAt, recordId: last.id }) : undefined;
    return { records, ...(nextCursor ? { nextCursor } : {}) };
  }

  /** Deleted records after a position (newest first); GraphQL pages with its own cursors over the same positions. */
  async deletedPage(
    mirror: MirrorBase,
    filter: DeletedRecordsFilter,
    limit: number,
    after?: DeletedPosition,
  ): Promise<{ records: DeletedRecord[]; hasMore: boolean }> {
    return this.deletedAfter(mirror, deletedBounds(filter), limit, after);
  }

  /** How many deleted records the filter lists, whatever the page. */
  deletedCount(mirror: MirrorBase, filter: DeletedRecordsFilter): Promise<number> {
    return countDeletedRecords(this.dataSource, mirror.baseId, deletedBounds(filter));
  }

  /** How many versions of the record are kept. */
  versionCount(mirror: MirrorBase, recordId: string): Promise<number> {
    return countVersions(this.dataSource, mirror.baseId, recordId);
  }

  private async deletedAfter(
    mirror: MirrorBase,
    bounds: DeletedBounds,
    limit: number,
    after?: DeletedPosition,
  ): Promise<{ records: DeletedRecord[]; hasMore: boolean }> {
    const rows = await deletedRecordRows(this.dataSource, mirror.baseId, { ...bounds, after, limit: limit + 1 });
    const records = rows.slice(0, limit).map((row) => ({
      id: row.record_id,
      tableId: row.table_id,
      deletedAt: row.deleted_at!,
      deletedBy: row.deleted_by,
      fields: JSON.parse(row.fields_json) as Cells,
    }));
    return { records, hasMore: rows.length > limit };
  }

  /** Versions oldest first with the record after each, from the keyframe before the newest in bounds. */
  async foldedAt(
    baseId: string,
    recordId: string,
    bounds: { at?: string; atOrBeforeSeq?: number },
    wanted = 1,
    oldestSeq = Number.MAX_SAFE_INTEGER,
  ): Promise<FoldedVersion[]> {
    return foldVersions(await this.fromKeyframe(baseId, recordId, bounds, wanted, oldestSeq));
  }

  /**
   * Versions oldest first from the newest whole one at or before `oldestSeq` and the `wanted` newest in bounds ([]
   * when there is none): what folding needs. The rows before that whole version are not parsed.
   */
  private async fromKeyframe(
    baseId: string,
    recordId: string,
    bounds: { at?: string; atOrBeforeSeq?: number; beforeSeq?: number },
    wanted = 1,
    oldestSeq = Number.MAX_SAFE_INTEGER,
  ): Promise<StoredVersion[]> {
    let limit = wanted + KEYFRAME_EVERY;
    for (;;) {
      const rows = await versionsBack(this.dataSource, baseId, recordId, bounds, limit);
      const oldestFirst = rows.reverse();
      const start = oldestFirst.findIndex((row) => Number(row.keyframe) === 1);
      const found = start !== -1 && oldestFirst[start]!.seq <= oldestSeq;
      if (found || rows.length < limit) return start === -1 ? [] : oldestFirst.slice(start).map(toStored);
      limit *= 4;
    }
  }

  private requireSeeded(mirror: MirrorHead): void {
    if (mirror.seededAt === null) throw conflict('The mirror of this base is being seeded: read it once GET …/mirror says live');
  }

  /** `at` as stored text; 400 before the first seed, older than the retention, or in the future. */
  checkedInstant(mirror: MirrorHead, at: string): string {
    this.requireSeeded(mirror);
    const instant = new Date(at);
    const oldest = new Date(Math.max(mirror.seededAt!.getTime(), Date.now() - this.retentionDays * 86_400_000));
    if (instant < oldest) throw invalidRequest(`at must not be before ${oldest.toISOString()} (the mirror’s seed or its retention)`);
    // A later instant has no answer yet: the same read would give other values once changes come.
    if (instant.getTime() > Date.now()) throw invalidRequest('at must not be in the future');
    return instant.toISOString();
  }
}

/** The mirror's row without its schema. */
type MirrorHead = Omit<MirrorBase, 'schemaJson'>;

type DeletedBounds = { tableId?: string; from?: string; to?: string };

/** The filter's days as ISO bounds of deleted_at (from inclusive, to exclusive); 400 when from is after to. */
function deletedBounds(filter: DeletedRecordsFilter): DeletedBounds {
  const zone = filter.timezone ?? 'UTC';
  if (filter.from && filter.to && filter.from > filter.to) throw invalidRequest('from must not be after to');
  return { tableId: filter.tableId, ...dayRangeInstants(zone, filter.from, filter.to) };
}

/**
 * `%text%` for LIKE on the lower-cased value: LIKE's own characters escaped; a character beyond ASCII matches any one
 * (SQLite's LOWER and LIKE fold ASCII letters only), and the exact check happens on the candidates.
 */
function likePattern(needle: string): string {
  let pattern = '';
  for (const char of needle) pattern += char.charCodeAt(0) > 127 ? '_' : /[%_\\]/.test(char) ? `\\${char}` : char;
  return `%${pattern}%`;
}

/** The primary value as a picker shows it: a list's (a lookup's, a formula's) items joined, a collaborator's name. */
function primaryText(text: string | null): string | null {
  if (text === null || text === '') return null;
  if (!text.startsWith('[') && !text.startsWith('{')) return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const item = (v: unknown): string | null =>
    typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
      ? String(v)
      : typeof v === 'object' && v !== null && 'name' in v && typeof v.name === 'string'
        ? v.name
        : null;
  const shown = Array.isArray(value)
    ? value
        .map(item)
        .filter((v) => v !== null)
        .join(', ')
    : item(value);
  return shown || null;
}

function toStored(row: StoredVersionRow): StoredVersion {
  return {
    seq: Number(row.seq),
    at: row.at,
    eventType: row.event_type,
    source: row.source,
    userEmail: row.user_email,
    full: Number(row.keyframe) === 1,
    fields: JSON.parse(row.fields_json) as Cells,
  };
}
