import { z } from 'zod';
import {
  WEBHOOK_CHANGE_TYPES,
  WEBHOOK_DATA_TYPES,
  WEBHOOK_SOURCE_FILTERS,
  type NewWebhook,
  type WebhookFilters,
  type WebhookIncludes,
} from '../../upstream/webhook-types.js';
import { isId } from '../id-generator.js';
import type { SandboxBase, SandboxTable } from '../sandbox.types.js';
import { invalidSpecification } from './webhook-errors.js';

const fieldIds = z.array(z.string());

const filtersSchema = z.strictObject({
  dataTypes: z.array(z.enum(WEBHOOK_DATA_TYPES)).min(1),
  recordChangeScope: z.string().optional(),
  changeTypes: z.array(z.enum(WEBHOOK_CHANGE_TYPES)).optional(),
  fromSources: z.array(z.enum(WEBHOOK_SOURCE_FILTERS)).optional(),
  sourceOptions: z
    .strictObject({
      formSubmission: z.strictObject({ viewId: z.string() }).optional(),
      formPageSubmission: z.strictObject({ pageId: z.string() }).optional(),
    })
    .optional(),
  watchDataInFieldIds: fieldIds.optional(),
  watchSchemasOfFieldIds: fieldIds.optional(),
});

const includesSchema = z.strictObject({
  includeCellValuesInFieldIds: z.union([z.literal('all'), fieldIds]).optional(),
  includePreviousCellValues: z.boolean().optional(),
  includePreviousFieldDefinitions: z.boolean().optional(),
});

const createWebhookSchema = z.strictObject({
  notificationUrl: z.string().nullable().optional(),
  specification: z.strictObject({ options: z.strictObject({ filters: filtersSchema, includes: includesSchema.optional() }) }),
});

/** A specification checked against the base, with its scope resolved to a table (and view). */
export interface ResolvedSpecification {
  filters: WebhookFilters;
  includes: WebhookIncludes;
  scopeTableId?: string;
  scopeViewId?: string;
}

export interface ValidatedWebhook {
  notificationUrl: string | null;
  /** As sent, echoed by list webhooks. */
  specification: NewWebhook['specification'];
  resolved: ResolvedSpecification;
}

/** Validates like the platform: `dataTypes` required, every table, view and field given by an existing id. */
export function validateNewWebhook(body: unknown, base: SandboxBase): ValidatedWebhook {
  const parsed = createWebhookSchema.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidSpecification(`${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const { notificationUrl, specification } = parsed.data;
  if (notificationUrl !== undefined && notificationUrl !== null) checkUrl(notificationUrl);
  const { filters, includes = {} } = specification.options;
  const scope = resolveScope(base, filters.recordChangeScope);
  const tables = scope ? [scope.table] : base.tables;
  checkFieldIds(tables, 'watchDataInFieldIds', filters.watchDataInFieldIds);
  checkFieldIds(tables, 'watchSchemasOfFieldIds', filters.watchSchemasOfFieldIds);
  if (includes.includeCellValuesInFieldIds !== 'all') {
    checkFieldIds(tables, 'includeCellValuesInFieldIds', includes.includeCellValuesInFieldIds);
  }
  checkPrefixed('sourceOptions.formSubmission.viewId', filters.sourceOptions?.formSubmission?.viewId, 'viw');
  checkPrefixed('sourceOptions.formPageSubmission.pageId', filters.sourceOptions?.formPageSubmission?.pageId, 'pag');
  return {
    notificationUrl: notificationUrl ?? null,
    specification,
    resolved: { filters, includes, scopeTableId: scope?.table.id, scopeViewId: scope?.viewId },
  };
}

function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidSpecification('notificationUrl must be an absolute http(s) URL.');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw invalidSpecification('notificationUrl must be an absolute http(s) URL.');
  }
}

function resolveScope(base: SandboxBase, scope: string | undefined): { table: SandboxTable; viewId?: string } | undefined {
  if (scope === undefined) return undefined;
  if (isId(scope, 'tbl')) {
    const table = base.tables.find((candidate) => candidate.id === scope);
    if (!table) throw invalidSpecification(`recordChangeScope ${scope} is not a table of this base.`);
    return { table };
  }
  if (isId(scope, 'viw')) {
    const table = base.tables.find((candidate) => candidate.views.some((view) => view.id === scope));
    if (!table) throw invalidSpecification(`recordChangeScope ${scope} is not a view of this base.`);
    return { table, viewId: scope };
  }
  throw invalidSpecification('recordChangeScope must be a table or view id, not a name.');
}

function checkFieldIds(tables: SandboxTable[], key: string, ids: string[] | undefined): void {
  for (const id of ids ?? []) {
    if (!isId(id, 'fld')) throw invalidSpecification(`${key} must hold field ids, not names: "${id}".`);
    if (!tables.some((table) => table.fields.some((field) => field.id === id))) {
      throw invalidSpecification(`${key}: field ${id} does not exist in the watched table(s).`);
    }
  }
}

function checkPrefixed(key: string, id: string | undefined, prefix: string): void {
  if (id !== undefined && !(id.length === 17 && id.startsWith(prefix))) {
    throw invalidSpecification(`${key} must be an id starting with "${prefix}".`);
  }
}
