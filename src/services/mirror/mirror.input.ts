import { z } from 'zod';
import { Day, TimeZone, queryInteger } from '../input-fields.js';

const Instant = z.iso.datetime({ offset: true }).meta({ format: 'date-time', example: '2026-11-21T09:00:00.000Z' });
const RecordId = z.string().regex(/^rec[A-Za-z0-9]{14}$/, 'must be a record id (rec followed by 14 letters or digits)');
const TableId = z.string().regex(/^tbl[A-Za-z0-9]{14}$/, 'must be a table id (tbl followed by 14 letters or digits)');
const FieldId = z.string().regex(/^fld[A-Za-z0-9]{14}$/, 'must be a field id (fld followed by 14 letters or digits)');
const SearchText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(200)
  .meta({ description: 'part of the primary field’s value (any case), or the start of a record id (rec…)' });
/** A record search's matches: 20 unless asked, at most 50. */
export const SEARCH_LIMIT = { default: 20, max: 50 } as const;
const RecordSearch = z.object({
  search: SearchText,
  tableId: TableId.optional(),
  limit: queryInteger(1, SEARCH_LIMIT.max, SEARCH_LIMIT.default),
});
const Cursor = z.string().min(1).max(200).optional().meta({ description: 'a nextCursor of this list' });

/** What the mirror's reads and restores accept (CONTRACT §11). */
export const mirrorInput = {
  recordParams: z.object({ recordId: RecordId }),
  recordAt: z.object({ at: Instant.optional().meta({ description: 'the instant (default: now)' }) }),
  history: z.object({ limit: queryInteger(1, 100, 50), cursor: Cursor }),
  deleted: z.object({
    tableId: TableId.optional(),
    from: Day.optional().meta({ description: 'deleted on or after the start of this day' }),
    to: Day.optional().meta({ description: 'deleted on or before the end of this day' }),
    timezone: TimeZone.optional().meta({ description: '`utc` or an IANA zone; the zone of `from` and `to`', default: 'utc' }),
    limit: queryInteger(1, 100, 50),
    cursor: Cursor,
  }),
  search: RecordSearch,
  /** The same for GraphQL, whose count is a number. */
  searchArgs: RecordSearch.extend({ limit: z.number().int().min(1).max(SEARCH_LIMIT.max).default(SEARCH_LIMIT.default) }),
  restore: z.strictObject({
    tableId: TableId,
    recordIds: z.array(RecordId).min(1).max(1000),
    at: Instant.optional(),
    fieldIds: z.array(FieldId).min(1).max(500).optional(),
    dryRun: z.boolean().optional(),
  }),
};

export type RestoreInput = z.infer<typeof mirrorInput.restore>;
export type DeletedRecordsInput = z.infer<typeof mirrorInput.deleted>;
export type RecordSearchInput = z.infer<typeof mirrorInput.search>;
