import type { IdGenerator } from './id-generator.js';
import type { SandboxBase, SandboxField, SandboxTable } from './sandbox.types.js';

/**
 * The two sides of a link, as on the platform: a `multipleRecordLinks` field to another table gets an inverse
 * field there, named after the linking table, and each names the other in `options.inverseLinkFieldId`. A link to
 * its own table gets no inverse and keeps no second side.
 */

export const LINK_FIELD_TYPE = 'multipleRecordLinks';

export interface TableField {
  table: SandboxTable;
  field: SandboxField;
}

/** Link options in the platform's order; `inverseLinkFieldId` only for a link to another table. */
export function linkOptions(linkedTableId: string, inverseLinkFieldId?: string): Record<string, unknown> {
  return {
    linkedTableId,
    ...(inverseLinkFieldId === undefined ? {} : { inverseLinkFieldId }),
    isReversed: false,
    prefersSingleRecordLink: false,
  };
}

/**
 * Adds the inverse of `field` (just added to `table`) to the linked table and points `field` at it. Nothing for
 * other types and for a link to its own table. Ids come from `ids`, so seeded content stays deterministic.
 */
export function addInverseField(ids: IdGenerator, base: SandboxBase, table: SandboxTable, field: SandboxField): TableField | undefined {
  if (field.type !== LINK_FIELD_TYPE) return undefined;
  const linkedTableId = field.options?.linkedTableId;
  const linkedTable = base.tables.find((candidate) => candidate.id === linkedTableId);
  if (!linkedTable || linkedTable === table) return undefined;
  const inverse: SandboxField = {
    id: ids.next('fld'),
    name: freeFieldName(linkedTable, table.name),
    type: LINK_FIELD_TYPE,
    options: linkOptions(table.id, field.id),
  };
  field.options = linkOptions(linkedTable.id, inverse.id);
  linkedTable.fields.push(inverse);
  return { table: linkedTable, field: inverse };
}

/** The other side of a link field, when it links to another table of the base and that side still exists. */
export function inverseFieldOf(base: SandboxBase, table: SandboxTable, field: SandboxField): TableField | undefined {
  if (field.type !== LINK_FIELD_TYPE) return undefined;
  const { linkedTableId, inverseLinkFieldId } = field.options ?? {};
  if (typeof inverseLinkFieldId !== 'string') return undefined;
  const linkedTable = base.tables.find((candidate) => candidate.id === linkedTableId);
  const inverse = linkedTable?.fields.find((candidate) => candidate.id === inverseLinkFieldId);
  return linkedTable && inverse && linkedTable !== table ? { table: linkedTable, field: inverse } : undefined;
}

/** `wanted`, or `wanted 2`, `wanted 3`… when the name is taken (names are unique ignoring case). */
function freeFieldName(table: SandboxTable, wanted: string): string {
  const taken = new Set(table.fields.map((field) => field.name.toLowerCase()));
  let name = wanted;
  for (let suffix = 2; taken.has(name.toLowerCase()); suffix++) name = `${wanted} ${suffix}`;
  return name;
}
