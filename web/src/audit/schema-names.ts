/** A base's tables and fields as the page reads them (MonitoringConfig.tables, airtableTables). */
export interface SchemaTable {
  restId: string;
  name: string;
  primaryFieldId: string;
  fields: Array<{ restId: string; name: string }>;
}

/** What a page needs to show names for a base's ids: tables and fields by id. */
export interface SchemaNames {
  tables: SchemaTable[];
  table(id: string): SchemaTable | undefined;
  /** The field's name and its table's; undefined when no table of the schema has it (deleted, or unknown). */
  field(id: string): { name: string; table: SchemaTable } | undefined;
}

export function schemaNames(tables: SchemaTable[] | null | undefined): SchemaNames {
  const list = tables ?? [];
  const byTable = new Map(list.map((table) => [table.restId, table]));
  const byField = new Map(list.flatMap((table) => table.fields.map((field) => [field.restId, { name: field.name, table }] as const)));
  return { tables: list, table: (id) => byTable.get(id), field: (id) => byField.get(id) };
}

/** The value of a record's primary field in a change's cells, when it is a plain string or number. */
export function primaryValue(table: SchemaTable | undefined, ...cells: Array<Record<string, unknown> | null>): string | undefined {
  if (!table) return undefined;
  for (const values of cells) {
    const value = values?.[table.primaryFieldId];
    if (typeof value === 'string' && value.trim()) return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}
