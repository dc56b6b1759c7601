import { renderCell } from './cell-values.js';
import type { SandboxRecord, SandboxTable } from './sandbox.types.js';

export interface RecordResponse {
  id: string;
  createdTime: string;
  fields: Record<string, unknown>;
  commentCount?: number;
}

export interface RecordViewOptions {
  /** Only these fields (by id); all fields when absent. */
  fieldIds?: ReadonlySet<string>;
  byFieldId?: boolean;
  commentCount?: boolean;
}

/** Empty cells are never stored, so they are left out here as the real API leaves them out. */
export function toRecordResponse(table: SandboxTable, record: SandboxRecord, options: RecordViewOptions = {}): RecordResponse {
  const fields: Record<string, unknown> = {};
  for (const field of table.fields) {
    const value = record.cellsByFieldId[field.id];
    if (value === undefined || (options.fieldIds && !options.fieldIds.has(field.id))) continue;
    fields[options.byFieldId ? field.id : field.name] = renderCell(field, value);
  }
  const response: RecordResponse = { id: record.id, createdTime: record.createdTime, fields };
  if (options.commentCount) response.commentCount = 0;
  return response;
}
