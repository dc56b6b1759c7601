/** A stored cell value in the REST write/read format (attachments are kept compact, see attachments.ts). */
export type CellValue = string | number | boolean | readonly unknown[] | { readonly [key: string]: unknown };

/** Cells keyed by field id; empty cells are never stored. */
export type Cells = Record<string, CellValue>;

export interface SandboxField {
  id: string;
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown>;
}

export interface SandboxView {
  id: string;
  name: string;
  type: 'grid';
}

export interface SandboxRecord {
  id: string;
  createdTime: string;
  cellsByFieldId: Cells;
}

export interface SandboxTable {
  id: string;
  name: string;
  description?: string;
  primaryFieldId: string;
  fields: SandboxField[];
  views: SandboxView[];
  /** Insertion order is creation order, which is also the grid view's order. */
  records: Map<string, SandboxRecord>;
}

export interface SandboxBase {
  id: string;
  name: string;
  permissionLevel: 'create';
  tables: SandboxTable[];
}

export interface FieldConfig {
  name: string;
  type: string;
  description?: string;
  options?: Record<string, unknown>;
}

export interface TableConfig {
  name: string;
  description?: string;
  fields: FieldConfig[];
}

export interface TableDefinition extends TableConfig {
  /** Cell values keyed by field name, in the API's write format. */
  records?: Array<Record<string, unknown>>;
}

export interface BaseDefinition {
  name: string;
  tables: TableDefinition[];
}

export interface AddBaseOptions {
  /** createdTime of the first record; later records follow one second apart. Default: now. */
  createdTimeStart?: Date;
}

export interface LargeBaseOptions {
  name: string;
  tables: number;
  recordsPerTable: number;
  attachmentsPerRecord?: number;
  /** Name, Amount and Files, then fields of common writable types up to this many (default 3, at least 3). */
  fieldsPerTable?: number;
}
