import { z } from 'zod';
import type {
  ActionMetadata,
  ChangedField,
  ChangedRecord,
  ChangedView,
  CreatedRecord,
  CreatedWebhook,
  FieldDefinition,
  TableChanged,
  TableCreated,
  TableMetadataState,
  UpstreamWebhook,
  WebhookNotificationResult,
  WebhookPayload,
  WebhookPayloadPage,
} from './webhook-types.js';

/** Every object keeps keys it does not know: the platform adds keys without notice. */
const cells = z.record(z.string(), z.unknown());
const cellValues = z.looseObject({ cellValuesByFieldId: cells });
const byId = <T extends z.ZodType>(value: T) => z.record(z.string(), value);

export const createdWebhookSchema: z.ZodType<CreatedWebhook> = z.looseObject({
  id: z.string(),
  macSecretBase64: z.string(),
  expirationTime: z
    .string()
    .nullable()
    .optional()
    .transform((value) => value ?? null),
});

export const notificationResultSchema: z.ZodType<WebhookNotificationResult> = z.looseObject({
  success: z.boolean(),
  completionTimestamp: z.string(),
  durationMs: z.number(),
  retryNumber: z.number(),
  error: z.looseObject({ message: z.string() }).optional(),
  willBeRetried: z.boolean().optional(),
});

export const webhookSchema: z.ZodType<UpstreamWebhook> = z.looseObject({
  id: z.string(),
  areNotificationsEnabled: z.boolean(),
  cursorForNextPayload: z.number(),
  isHookEnabled: z.boolean(),
  lastSuccessfulNotificationTime: z
    .string()
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  notificationUrl: z
    .string()
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  expirationTime: z.string().nullable().optional(),
  lastNotificationResult: notificationResultSchema
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  specification: z.looseObject({ options: z.record(z.string(), z.unknown()) }),
});

export const webhooksSchema = z.looseObject({ webhooks: z.array(webhookSchema) });

export const refreshedWebhookSchema = z.looseObject({
  expirationTime: z
    .string()
    .nullable()
    .optional()
    .transform((value) => value ?? null),
});

/** Delete and enable/disable answer with an empty body. */
export const emptyResponseSchema = z.unknown();

export const actionMetadataSchema: z.ZodType<ActionMetadata> = z.looseObject({
  source: z.string(),
  sourceMetadata: z
    .looseObject({
      user: z
        .looseObject({
          id: z.string(),
          email: z.string(),
          name: z.string().optional(),
          permissionLevel: z.string(),
          profilePicUrl: z.string().optional(),
        })
        .optional(),
      viewId: z.string().optional(),
      pageId: z.string().optional(),
      automationId: z.string().optional(),
    })
    .optional(),
});

const createdRecordSchema: z.ZodType<CreatedRecord> = z.looseObject({ createdTime: z.string(), cellValuesByFieldId: cells });

const changedRecordSchema: z.ZodType<ChangedRecord> = z.looseObject({
  current: cellValues,
  previous: cellValues.optional(),
  unchanged: cellValues.optional(),
});

const tableMetadataSchema: z.ZodType<TableMetadataState> = z.looseObject({
  name: z.string(),
  description: z
    .string()
    .nullable()
    .optional()
    .transform((value) => value ?? null),
});

const fieldDefinitionSchema: z.ZodType<FieldDefinition> = z.looseObject({ name: z.string(), type: z.string() });

const fieldChangeSchema = z.looseObject({
  name: z.string().optional(),
  type: z.string().optional(),
  description: z.string().nullable().optional(),
  options: z.record(z.string(), z.unknown()).nullable().optional(),
});

const changedFieldSchema: z.ZodType<ChangedField> = z.looseObject({
  current: fieldChangeSchema,
  previous: fieldChangeSchema.optional(),
});

const changedViewSchema: z.ZodType<ChangedView> = z.looseObject({
  createdRecordsById: byId(createdRecordSchema).optional(),
  changedRecordsById: byId(changedRecordSchema).optional(),
  destroyedRecordIds: z.array(z.string()).optional(),
});

export const tableChangedSchema: z.ZodType<TableChanged> = z.looseObject({
  changedMetadata: z.looseObject({ current: tableMetadataSchema, previous: tableMetadataSchema.optional() }).optional(),
  createdFieldsById: byId(fieldDefinitionSchema).optional(),
  changedFieldsById: byId(changedFieldSchema).optional(),
  destroyedFieldIds: z.array(z.string()).optional(),
  createdRecordsById: byId(createdRecordSchema).optional(),
  changedRecordsById: byId(changedRecordSchema).optional(),
  destroyedRecordIds: z.array(z.string()).optional(),
  changedViewsById: byId(changedViewSchema).optional(),
});

export const tableCreatedSchema: z.ZodType<TableCreated> = z.looseObject({
  metadata: tableMetadataSchema.optional(),
  fieldsById: byId(fieldDefinitionSchema).optional(),
  recordsById: byId(createdRecordSchema).optional(),
});

export const webhookPayloadSchema: z.ZodType<WebhookPayload> = z.looseObject({
  timestamp: z.string(),
  baseTransactionNumber: z.number(),
  actionMetadata: actionMetadataSchema,
  payloadFormat: z.string(),
  changedTablesById: byId(tableChangedSchema).optional(),
  createdTablesById: byId(tableCreatedSchema).optional(),
  destroyedTableIds: z.array(z.string()).optional(),
  error: z.boolean().optional(),
  code: z.string().optional(),
});

export const webhookPayloadPageSchema: z.ZodType<WebhookPayloadPage> = z.looseObject({
  cursor: z.number(),
  mightHaveMore: z.boolean(),
  payloads: z.array(webhookPayloadSchema),
});
