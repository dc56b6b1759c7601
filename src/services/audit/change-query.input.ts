import { z } from 'zod';
import { Day, TimeZone, queryInteger } from '../input-fields.js';
import { CHANGE_EVENT_TYPES, CHANGE_KINDS, CHANGE_SOURCES } from './change-event.js';

const Filter = (description: string) => z.string().min(1).max(255).optional().meta({ description });

const filter = z.object({
  eventType: z.enum(CHANGE_EVENT_TYPES).optional(),
  kind: z.enum(CHANGE_KINDS).optional(),
  tableId: Filter('only changes of this table'),
  recordId: Filter('only changes of this record (or field id, for column events)'),
  source: z.enum(CHANGE_SOURCES).optional(),
  userEmail: Filter('only changes by this user (exact match)'),
  fieldId: Filter('only updates that touched this field'),
  from: Day.optional().meta({ description: 'changes on or after the start of this day' }),
  to: Day.optional().meta({ description: 'changes on or before the end of this day' }),
  timezone: TimeZone.optional().meta({ description: '`utc` or an IANA zone; the zone of `from` and `to`', default: 'utc' }),
});

/**
 * What a change list (`ChangeQueryService.list`) accepts: the filters (AND), and a page of them. GraphQL takes the
 * filters alone; its connections page with their own cursors.
 */
export const changeQueryInput = {
  filter,
  list: filter.extend({
    limit: queryInteger(1, 100, 50),
    cursor: z.string().min(1).max(200).optional().meta({ description: 'a nextCursor of this config' }),
  }),
};
