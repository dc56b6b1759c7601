import { mirrorInput } from '../services/mirror/mirror.input.js';
import { defineRoute } from './http/route.js';
import { ServiceId, Timestamp } from './schemas.js';
import { z } from './zod.js';

const tag = 'Mirror';

const Cells = z.record(z.string(), z.unknown()).openapi({ description: 'cell values by field id, as the upstream REST API returns them' });

export const MirrorBody = z
  .strictObject({
    status: z.enum(['seeding', 'live', 'gap']).openapi({
      description:
        'seeding: a full read is under way; live: every change since the seed is in; gap: changes may have been missed (it re-seeds by itself)',
    }),
    seededAt: Timestamp.nullable().openapi({ description: 'the first completed seed: point-in-time reads start here' }),
    continuousSince: Timestamp.nullable().openapi({ description: 'the last completed seed: no change was missed since' }),
    tables: z.array(z.strictObject({ tableId: z.string(), tableName: z.string(), recordCount: z.number().int() })),
  })
  .openapi('Mirror');

export const MirroredRecordBody = z
  .strictObject({
    id: z.string(),
    tableId: z.string(),
    createdTime: Timestamp,
    deletedAt: Timestamp.nullable(),
    fields: Cells,
  })
  .openapi('MirroredRecord');

export const RecordMatchBody = z
  .strictObject({
    id: z.string(),
    tableId: z.string(),
    primaryValue: z
      .string()
      .nullable()
      .openapi({ description: 'the primary field’s value as text (a list’s items joined by ", "); null when empty' }),
  })
  .openapi('RecordMatch');

export const RecordVersionBody = z
  .strictObject({
    at: Timestamp,
    eventType: z.enum(['baseline', 'record_create', 'record_update', 'record_delete', 'column_delete']),
    source: z.string(),
    userEmail: z.string().nullable(),
    fields: Cells.openapi({ description: 'the whole record after this change; {} for record_delete' }),
  })
  .openapi('RecordVersion');

export const DeletedRecordBody = z
  .strictObject({
    id: z.string(),
    tableId: z.string(),
    deletedAt: Timestamp,
    deletedBy: z.string().nullable(),
    fields: Cells.openapi({ description: 'the values just before the deletion' }),
  })
  .openapi('DeletedRecord');

export const RestoreBody = z
  .strictObject({
    id: z.string().openapi({ format: 'uuid' }),
    status: z.enum(['planned', 'running', 'done', 'failed']),
    at: Timestamp,
    tableId: z.string(),
    create: z.number().int().openapi({ description: 'records to re-create' }),
    update: z.number().int().openapi({ description: 'existing records whose fields are set back' }),
    skippedFieldIds: z.array(z.string()).openapi({ description: 'fields left out: gone upstream, or computed (cannot be written)' }),
    progress: z.strictObject({ done: z.number().int(), total: z.number().int() }),
    createdRecordIds: z.record(z.string(), z.string()).openapi({ description: 'old record id → the id of its re-creation' }),
    error: z.string().nullable(),
    createdAt: Timestamp,
    finishedAt: Timestamp.nullable(),
  })
  .openapi('Restore');

const ConfigParams = z.object({ id: ServiceId });
const RecordParams = ConfigParams.extend(mirrorInput.recordParams.shape);
const RestoreParams = ConfigParams.extend({ restoreId: ServiceId });

export const mirrorRoutes = {
  state: defineRoute({
    method: 'get',
    path: '/monitoring-config/{id}/mirror',
    operationId: 'getMirror',
    summary: 'The mirror of the config’s base (extension)',
    description:
      'One mirror per watched base, shared by every account whose connection sees it: every record with all its cells, seeded by a full read and kept current from the upstream webhook’s payloads. `recordCount` counts the records not deleted.',
    tag,
    params: ConfigParams,
    success: { status: 200, description: 'The mirror', schema: z.strictObject({ mirror: MirrorBody }) },
    errors: [401, 404, 429],
  }),
  search: defineRoute({
    method: 'get',
    path: '/monitoring-config/{id}/records',
    operationId: 'searchMirroredRecords',
    summary: 'Find records by their primary field’s value or id (extension)',
    description:
      'Records not deleted whose primary field’s value contains `search` (any case), or whose id starts with it (`rec` and at least 2 more characters, exact case), ordered by that value then id; at most `limit` (a lookup for pickers, not a paged list). 409 `conflict` while the mirror’s first seed runs.',
    tag,
    params: ConfigParams,
    query: mirrorInput.search,
    success: { status: 200, description: 'The matches', schema: z.strictObject({ records: z.array(RecordMatchBody) }) },
    errors: [400, 401, 404, 409, 429],
  }),
  record: defineRoute({
    method: 'get',
    path: '/monitoring-config/{id}/records/{recordId}',
    operationId: 'getMirroredRecord',
    summary: 'A record as it stood at an instant (extension)',
    description:
      'Default: now. A record deleted before `at` is answered with its last values and `deletedAt`. 404 when it had not been created yet at `at` (or is unknown); 400 for an `at` before the mirror’s `seededAt`, older than AUDIT_RETENTION_DAYS or in the future; 409 `conflict` while the mirror’s first seed runs.',
    tag,
    params: RecordParams,
    query: mirrorInput.recordAt,
    success: { status: 200, description: 'The record', schema: z.strictObject({ record: MirroredRecordBody }) },
    errors: [400, 401, 404, 409, 429],
  }),
  history: defineRoute({
    method: 'get',
    path: '/monitoring-config/{id}/records/{recordId}/history',
    operationId: 'getRecordHistory',
    summary: 'A record’s versions, newest first (extension)',
    description:
      'Each version with who made it and through which source, and the whole record after it. A record first seen by a seed starts with a `baseline` version; a field deleted upstream leaves each record that held a value with a `column_delete` version without it. `nextCursor` is present only when an older page exists. 409 `conflict` while the mirror’s first seed runs.',
    tag,
    params: RecordParams,
    query: mirrorInput.history,
    success: {
      status: 200,
      description: 'A page of versions',
      schema: z.strictObject({
        recordId: z.string(),
        tableId: z.string(),
        versions: z.array(RecordVersionBody),
        nextCursor: z.string().optional(),
      }),
    },
    errors: [400, 401, 404, 409, 429],
  }),
  deleted: defineRoute({
    method: 'get',
    path: '/monitoring-config/{id}/deleted-records',
    operationId: 'listDeletedRecords',
    summary: 'Deleted records with their last values, newest first (extension)',
    tag,
    params: ConfigParams,
    query: mirrorInput.deleted,
    success: {
      status: 200,
      description: 'A page of deleted records',
      schema: z.strictObject({ records: z.array(DeletedRecordBody), nextCursor: z.string().optional() }),
    },
    errors: [400, 401, 404, 429],
  }),
  restore: defineRoute({
    method: 'post',
    path: '/monitoring-config/{id}/restores',
    operationId: 'restoreRecords',
    summary: 'Restore records from the mirror (extension)',
    description: [
      'For each record: deleted at `at` (default now) → re-created with its values from just before its deletion; existing → its fields (only `fieldIds` when given) set back to their values at `at`. Fields that no longer exist or cannot be written (formula, rollup, lookup, count, createdTime, autoNumber, …) are skipped and listed (so are `fieldIds` the table does not have). Links to re-created records are pointed at their new ids. 400 for an `at` before the mirror’s `seededAt`, older than AUDIT_RETENTION_DAYS or in the future.',
      'Written by a job through the account’s own connection, 10 records a request within the base’s limits; a restore cut off by a crash resumes and never creates a record twice. `dryRun: true` answers 200 with the plan and writes nothing. 403 `forbidden` when the connection cannot write records of the base; 409 `upstream_not_connected` without a connection; 409 `conflict` when a deleted record asked for was re-created by an earlier restore, or is being (the message names the new record: restore that one).',
    ].join('\n\n'),
    tag,
    params: ConfigParams,
    body: mirrorInput.restore,
    success: { status: 202, description: 'The planned restore, queued', schema: z.strictObject({ restore: RestoreBody }) },
    alsoSucceeds: { status: 200, description: 'A dry run: what would be written; nothing is' },
    errors: [400, 401, 403, 404, 409, 413, 429, 502],
  }),
  getRestore: defineRoute({
    method: 'get',
    path: '/monitoring-config/{id}/restores/{restoreId}',
    operationId: 'getRestore',
    summary: 'A restore’s progress and result (extension)',
    tag,
    params: RestoreParams,
    success: { status: 200, description: 'The restore', schema: z.strictObject({ restore: RestoreBody }) },
    errors: [401, 404, 429],
  }),
};
