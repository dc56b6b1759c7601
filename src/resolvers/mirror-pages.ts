import type { MirrorBase } from '../entities/index.js';
import { DELETED_POSITION, type DeletedPosition, type DeletedRecordsFilter } from '../services/mirror/mirror-read.service.js';
import { SEQ_POSITION } from '../services/signed-cursor.js';
import type { GraphqlContext } from './context.js';
import { cursorCodec, type CursorCodec } from './relay/cursor.js';
import type { ForwardSource } from './relay/forward-page.js';
import { toDeletedRecordType, toRecordVersionType, type DeletedRecordType, type RecordVersionType } from './types/mirror.type.js';

/** A version with its place in the record's history (the version's seq: newest first, so a larger seq comes first). */
export type PlacedVersion = RecordVersionType & { seq: number };

/** A record's versions, newest first, keyed by their seq; the cursors belong to the config and the record. */
export function historySource(context: GraphqlContext, mirror: MirrorBase, recordId: string): ForwardSource<PlacedVersion, number> {
  const reads = context.services.mirrorReads;
  return {
    load: async (limit, afterSeq) => {
      const page = await reads.versionPage(mirror, recordId, limit, afterSeq);
      return page.versions.map((version, i) => Object.assign(toRecordVersionType(version), { seq: page.seqs[i]! }));
    },
    keyOf: (version) => version.seq,
    atOrBefore: (a, b) => a >= b,
    count: () => reads.versionCount(mirror, recordId),
  };
}

export const historyCursors = (context: GraphqlContext, configId: string, recordId: string): CursorCodec<number> =>
  cursorCodec(context.services.cursors, 'record-history', `${configId}:${recordId}`, SEQ_POSITION);

/** Deleted records with the filter's bounds, newest first (ties by record id, descending), keyed by both. */
export function deletedSource(
  context: GraphqlContext,
  mirror: MirrorBase,
  filter: DeletedRecordsFilter,
): ForwardSource<DeletedRecordType, DeletedPosition> {
  const reads = context.services.mirrorReads;
  return {
    load: async (limit, after) => {
      const { records } = await reads.deletedPage(mirror, filter, limit, after);
      const restored = records.length ? await context.services.mirrorRestores.restoredAs(mirror.baseId) : new Map<string, string>();
      return records.map((record) => toDeletedRecordType(record, restored.get(record.id) ?? null));
    },
    keyOf: (record) => ({ deletedAt: record.deletedAt, recordId: record.recordId }),
    atOrBefore: (a, b) => a.deletedAt > b.deletedAt || (a.deletedAt === b.deletedAt && a.recordId >= b.recordId),
    count: () => reads.deletedCount(mirror, filter),
  };
}

/** Cursors of a config's deleted records: a position holds under any filter, as the changes' cursors do. */
export const deletedCursors = (context: GraphqlContext, configId: string): CursorCodec<DeletedPosition> =>
  cursorCodec(context.services.cursors, 'deleted-records', configId, DELETED_POSITION);
