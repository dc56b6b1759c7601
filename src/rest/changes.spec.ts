import { CHANGE_EVENT_TYPES, CHANGE_KINDS, CHANGE_SOURCES } from '../services/audit/change-event.js';
import { defineRoute } from './http/route.js';
import { Day, ServiceId, TimeZone, Timestamp, queryInteger } from './schemas.js';
import { z } from './zod.js';

const JsonObject = z.record(z.string(), z.unknown());

/** One logged change (CONTRACT §3): exactly these fields. */
export const ChangeRecordBody = z
  .strictObject({
    id: z.string().openapi({ description: 'the service’s stable id of this change' }),
    monitoringRecordId: z
      .string()
      .nullable()
      .openapi({ description: 'the row of this change in the Changes table; null until written there' }),
    occurredAt: Timestamp.openapi({ description: 'when the upstream change happened' }),
    eventType: z.enum(CHANGE_EVENT_TYPES),
    kind: z.enum(CHANGE_KINDS),
    tableId: z.string(),
    tableName: z.string(),
    recordId: z.string().nullable().openapi({ description: 'the record, or the field id for column_* events; null for table_*' }),
    fieldIds: z.array(z.string()).openapi({ description: 'fields touched (updates), else []' }),
    source: z.enum(CHANGE_SOURCES),
    userEmail: z.string().nullable(),
    userName: z.string().nullable(),
    before: JsonObject.nullable().openapi({ description: 'cell values, or the field or table definition, before' }),
    after: JsonObject.nullable().openapi({ description: 'the same after' }),
  })
  .openapi('ChangeRecord');

const Filter = (description: string) => z.string().min(1).max(255).optional().openapi({ description });

export const changeRoutes = {
  list: defineRoute({
    method: 'get',
    path: '/monitoring-config/{id}/changes',
    operationId: 'listChanges',
    summary: 'List logged changes',
    description:
      'Newest first by occurrence time, ties broken by id. Filters combine (AND). `from`/`to` are whole days in ' +
      '`timezone`. `nextCursor` is present only when another page exists; it belongs to this config and stays ' +
      'valid while new changes arrive (they are newer than any page already read). A cursor of another config, or ' +
      'an altered one, is a 400.',
    tag: 'Audit Log',
    params: z.object({ id: ServiceId }),
    query: z.object({
      eventType: z.enum(CHANGE_EVENT_TYPES).optional(),
      kind: z.enum(CHANGE_KINDS).optional(),
      tableId: Filter('only changes of this table'),
      recordId: Filter('only changes of this record (or field id, for column events)'),
      source: z.enum(CHANGE_SOURCES).optional(),
      userEmail: Filter('only changes by this user (exact match)'),
      fieldId: Filter('only updates that touched this field'),
      from: Day.optional().openapi({ description: 'changes on or after the start of this day' }),
      to: Day.optional().openapi({ description: 'changes on or before the end of this day' }),
      timezone: TimeZone.optional().openapi({ description: '`utc` or an IANA zone; the zone of `from` and `to`', default: 'utc' }),
      limit: queryInteger(1, 100, 50),
      cursor: z.string().min(1).max(200).optional().openapi({ description: 'a nextCursor of this config' }),
    }),
    success: {
      status: 200,
      description: 'A page of changes',
      schema: z.strictObject({
        configId: z.string().openapi({ format: 'uuid' }),
        monitoringBaseId: z.string(),
        monitoringTableId: z.string(),
        records: z.array(ChangeRecordBody),
        nextCursor: z.string().optional(),
      }),
    },
    errors: [400, 401, 404, 429],
    conditional: true,
  }),
};
