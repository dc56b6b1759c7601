import type { SandboxBase, SandboxField, SandboxTable } from './sandbox.types.js';

export interface FieldResponse {
  id: string;
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown>;
}

export interface TableResponse {
  id: string;
  name: string;
  description?: string;
  primaryFieldId: string;
  fields: FieldResponse[];
  views: Array<{ id: string; name: string; type: string; visibleFieldIds?: string[] }>;
}

export function toBaseResponse(base: SandboxBase) {
  return { id: base.id, name: base.name, permissionLevel: base.permissionLevel };
}

export function toFieldResponse(field: SandboxField): FieldResponse {
  const response: FieldResponse = { id: field.id, name: field.name, type: field.type };
  if (field.description !== undefined) response.description = field.description;
  if (field.options !== undefined) response.options = field.options;
  return response;
}

export function toTableResponse(table: SandboxTable, includeVisibleFieldIds = false): TableResponse {
  return {
    id: table.id,
    name: table.name,
    ...(table.description === undefined ? {} : { description: table.description }),
    primaryFieldId: table.primaryFieldId,
    fields: table.fields.map(toFieldResponse),
    views: table.views.map((view) =>
      includeVisibleFieldIds ? { ...view, visibleFieldIds: table.fields.map((field) => field.id) } : { ...view },
    ),
  };
}
