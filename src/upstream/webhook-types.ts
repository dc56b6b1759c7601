/**
 * The platform's Webhooks API (Airtable `/v0/bases/{baseId}/webhooks`, payload format "v0"), as the client returns it.
 * No optional key is guaranteed to appear and the platform may add keys and enum values at any time, so enums
 * that arrive in responses stay open (`string`) and the response schemas keep unknown keys.
 */

export const WEBHOOK_DATA_TYPES = ['tableData', 'tableFields', 'tableMetadata'] as const;
export const WEBHOOK_CHANGE_TYPES = ['add', 'remove', 'update'] as const;
export const WEBHOOK_SOURCE_FILTERS = [
  'client',
  'publicApi',
  'formSubmission',
  'formPageSubmission',
  'automation',
  'system',
  'sync',
  'anonymousUser',
  'unknown',
] as const;

/** tableData: records and cells; tableFields: field schema; tableMetadata: table name and description. */
export type WebhookDataType = (typeof WEBHOOK_DATA_TYPES)[number];
export type WebhookChangeType = (typeof WEBHOOK_CHANGE_TYPES)[number];
export type WebhookSourceFilter = (typeof WEBHOOK_SOURCE_FILTERS)[number];

/** Every table, view and field must be named by id. */
export interface WebhookFilters {
  dataTypes: WebhookDataType[];
  /** A table id or a (grid) view id. */
  recordChangeScope?: string;
  changeTypes?: WebhookChangeType[];
  /** Omitted: every source. */
  fromSources?: WebhookSourceFilter[];
  sourceOptions?: {
    formSubmission?: { viewId: string };
    formPageSubmission?: { pageId: string };
  };
  /** Omitted: every field. */
  watchDataInFieldIds?: string[];
  watchSchemasOfFieldIds?: string[];
}

export interface WebhookIncludes {
  /** Always reported under `unchanged` for changed records when they did not change. */
  includeCellValuesInFieldIds?: string[] | 'all';
  includePreviousCellValues?: boolean;
  includePreviousFieldDefinitions?: boolean;
}

export interface WebhookSpecification {
  options: {
    filters: WebhookFilters;
    includes?: WebhookIncludes;
  };
}

export interface NewWebhook {
  /** Without it, payloads can only be polled. */
  notificationUrl?: string | null;
  specification: WebhookSpecification;
}

export interface CreatedWebhook {
  id: string;
  /** Returned only here, once: the key (base64) of the pings' X-Airtable-Content-MAC. */
  macSecretBase64: string;
  /** Null for webhooks that never expire. */
  expirationTime: string | null;
}

export interface WebhookNotificationResult {
  success: boolean;
  completionTimestamp: string;
  durationMs: number;
  /** 0 for the first attempt. */
  retryNumber: number;
  error?: { message: string };
  willBeRetried?: boolean;
}

export interface UpstreamWebhook {
  id: string;
  areNotificationsEnabled: boolean;
  /** The cursor the next payload will get. */
  cursorForNextPayload: number;
  /** False once expired or after the specification became invalid (see error payloads). */
  isHookEnabled: boolean;
  lastSuccessfulNotificationTime: string | null;
  notificationUrl: string | null;
  expirationTime?: string | null;
  lastNotificationResult: WebhookNotificationResult | null;
  /** Kept as sent; only `options` is typed. */
  specification: { options: Record<string, unknown> };
}

export interface WebhookPayloadPage {
  /** Resume from here: the last payload's cursor + 1, or the request's cursor when none came back. */
  cursor: number;
  /** True: ask again at once with `cursor`. */
  mightHaveMore: boolean;
  /** Not in the platform's documentation; read when present (third-party clients report it after lost payloads). */
  mightHaveMissedPayloads?: boolean;
  payloads: WebhookPayload[];
}

export interface ListWebhookPayloadsOptions {
  /** Default 1. */
  cursor?: number;
  /** 1–50. */
  limit?: number;
}

export interface WebhookUser {
  id: string;
  email: string;
  name?: string;
  /** `none | read | comment | edit | create` today. */
  permissionLevel: string;
  profilePicUrl?: string;
}

/**
 * Who made the change. `source` is one of `client`, `publicApi`, `formSubmission`, `formPageSubmission`,
 * `automation`, `system`, `sync`, `anonymousUser` today; new sources may appear.
 */
export interface ActionMetadata {
  source: string;
  sourceMetadata?: {
    /** client, publicApi */
    user?: WebhookUser;
    /** formSubmission */
    viewId?: string;
    /** formPageSubmission */
    pageId?: string;
    /** automation */
    automationId?: string;
    [key: string]: unknown;
  };
}

/** Cell values in the "V2" format: single select `{id, name, color?}`, linked records `[{id, name}]`, ... */
export type CellValuesByFieldId = Record<string, unknown>;

export interface CreatedRecord {
  createdTime: string;
  cellValuesByFieldId: CellValuesByFieldId;
}

/** `current` holds the changed cells (a cleared cell is null). */
export interface ChangedRecord {
  current: { cellValuesByFieldId: CellValuesByFieldId };
  /** With `includePreviousCellValues`. */
  previous?: { cellValuesByFieldId: CellValuesByFieldId };
  /** With `includeCellValuesInFieldIds`. */
  unchanged?: { cellValuesByFieldId: CellValuesByFieldId };
}

export interface TableMetadataState {
  name: string;
  description: string | null;
}

export interface FieldDefinition {
  name: string;
  type: string;
}

/** Only the properties that changed appear; one that was removed is null. */
export interface FieldDefinitionChange {
  name?: string;
  type?: string;
  description?: string | null;
  options?: Record<string, unknown> | null;
  [key: string]: unknown;
}

export interface ChangedField {
  current: FieldDefinitionChange;
  /** With `includePreviousFieldDefinitions`. */
  previous?: FieldDefinitionChange;
}

export interface ChangedView {
  createdRecordsById?: Record<string, CreatedRecord>;
  changedRecordsById?: Record<string, ChangedRecord>;
  destroyedRecordIds?: string[];
}

export interface TableChanged {
  changedMetadata?: { current: TableMetadataState; previous?: TableMetadataState };
  createdFieldsById?: Record<string, FieldDefinition>;
  changedFieldsById?: Record<string, ChangedField>;
  destroyedFieldIds?: string[];
  createdRecordsById?: Record<string, CreatedRecord>;
  changedRecordsById?: Record<string, ChangedRecord>;
  destroyedRecordIds?: string[];
  /** Only when `recordChangeScope` is a view id. */
  changedViewsById?: Record<string, ChangedView>;
}

export interface TableCreated {
  metadata?: TableMetadataState;
  fieldsById?: Record<string, FieldDefinition>;
  recordsById?: Record<string, CreatedRecord>;
}

/**
 * One payload (one transaction, or part of one: payloads of a split action share `timestamp`,
 * `baseTransactionNumber` and `actionMetadata`). An error payload has `error: true` and a `code`
 * (INVALID_FILTERS, INVALID_HOOK, INTERNAL_ERROR, or a newer one); after it the webhook stays disabled.
 */
export interface WebhookPayload {
  timestamp: string;
  baseTransactionNumber: number;
  actionMetadata: ActionMetadata;
  /** "v0" */
  payloadFormat: string;
  changedTablesById?: Record<string, TableChanged>;
  createdTablesById?: Record<string, TableCreated>;
  destroyedTableIds?: string[];
  error?: boolean;
  code?: string;
}

export function isErrorPayload(payload: WebhookPayload): payload is WebhookPayload & { error: true; code: string } {
  return payload.error === true;
}

/** The body of a notification ping; it carries no change data. */
export interface WebhookPing {
  base: { id: string };
  webhook: { id: string };
  timestamp: string;
}

/** The header carrying a ping's MAC: `hmac-sha256=<lowercase hex>`. */
export const WEBHOOK_MAC_HEADER = 'X-Airtable-Content-MAC';
