export type SqlValue = string | number | bigint | null;

/** A piece of SQL with its `?` parameters in order. */
export interface Sql {
  sql: string;
  params: SqlValue[];
}

/** Table names are spliced into SQL, so only plain identifiers are accepted. */
export function quotedTable(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new Error(`invalid table name: ${name}`);
  }
  return `"${name}"`;
}

export function and(parts: Sql[]): Sql {
  return {
    sql: parts.length === 0 ? '1 = 1' : parts.map((part) => `(${part.sql})`).join(' AND '),
    params: parts.flatMap((part) => part.params),
  };
}

export function iso(value: Date | string | number | null | undefined): string | null {
  return value === null || value === undefined ? null : new Date(value).toISOString();
}
