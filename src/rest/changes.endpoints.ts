import { CHANGE_EVENT_TYPES, CHANGE_KINDS, CHANGE_SOURCES } from '../services/audit/change-event.js';
import { changeQueryInput } from '../services/audit/change-query.input.js';
import { defineRoute } from './http/route.js';
import { ServiceId, Timestamp } from './schemas.js';
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
    query: changeQueryInput.list,
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
