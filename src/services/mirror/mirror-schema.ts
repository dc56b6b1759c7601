import type { UpstreamTable } from '../../upstream/types.js';
import type { MirrorChange } from './mirror-change.js';

export interface MirrorField {
  id: string;
  name: string;
  type: string;
}

export interface MirrorTable {
  id: string;
  name: string;
  primaryFieldId: string;
  fields: MirrorField[];
}

/** The base's tables and fields as the mirror knows them: read by each seed, kept current from schema payloads. */
export interface MirrorSchema {
  tables: MirrorTable[];
}

/** The platform's documentation marks these read only: the API writes none of their cells. */
export const READ_ONLY_FIELD_TYPES: ReadonlySet<string> = new Set([
  'aiText',
  'autoNumber',
  'button',
  'count',
  'createdBy',
  'createdTime',
  'formula',
  'lastModifiedBy',
  'lastModifiedTime',
  'multipleLookupValues',
  'rollup',
  'externalSyncSource',
]);

export function schemaOf(tables: UpstreamTable[]): MirrorSchema {
  return {
    tables: tables.map((table) => ({
      id: table.id,
      name: table.name,
      primaryFieldId: table.primaryFieldId,
      fields: table.fields.map((field) => ({ id: field.id, name: field.name, type: field.type })),
    })),
  };
}

export function parseSchema(json: string): MirrorSchema {
  const parsed = JSON.parse(json) as Partial<MirrorSchema>;
  return { tables: parsed.tables ?? [] };
}

export function fieldTypesOf(schema: MirrorSchema, tableId: string): Map<string, string> {
  const table = schema.tables.find((t) => t.id === tableId);
  return new Map((table?.fields ?? []).map((field) => [field.id, field.type]));
}

export function attachmentFieldIds(schema: MirrorSchema, tableId: string): string[] {
  const table = schema.tables.find((t) => t.id === tableId);
  return (table?.fields ?? []).filter((field) => field.type === 'multipleAttachments').map((field) => field.id);
}

/** Applies one schema change from a payload; returns true when a table's attachment fields may have changed. */
export function applySchemaChange(schema: MirrorSchema, change: MirrorChange): boolean {
  const definition = change.cells as { name?: unknown; type?: unknown; fields?: Record<string, { name?: unknown; type?: unknown }> };
  const table = schema.tables.find((t) => t.id === change.tableId);
  switch (change.eventType) {
    case 'table_create': {
      if (table) return false;
      const fields = Object.entries(definition.fields ?? {}).map(([id, field]) => ({
        id,
        name: String(field.name ?? ''),
        type: String(field.type ?? ''),
      }));
      schema.tables.push({ id: change.tableId, name: String(definition.name ?? ''), primaryFieldId: fields[0]?.id ?? '', fields });
      return true;
    }
    case 'table_update':
      if (table && typeof definition.name === 'string') table.name = definition.name;
      return false;
    case 'table_delete':
      schema.tables = schema.tables.filter((t) => t.id !== change.tableId);
      return true;
    case 'column_create':
      if (table && !table.fields.some((f) => f.id === change.recordId)) {
        table.fields.push({ id: change.recordId, name: String(definition.name ?? ''), type: String(definition.type ?? '') });
      }
      return definition.type === 'multipleAttachments';
    case 'column_update': {
      const field = table?.fields.find((f) => f.id === change.recordId);
      if (!field) return false;
      if (typeof definition.name === 'string') field.name = definition.name;
      if (typeof definition.type === 'string' && definition.type !== field.type) {
        field.type = definition.type;
        return true;
      }
      return false;
    }
    case 'column_delete':
      if (table) table.fields = table.fields.filter((f) => f.id !== change.recordId);
      return true;
    default:
      return false;
  }
}
