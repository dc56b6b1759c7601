import type { MirrorField } from './mirror-schema.js';
import { READ_ONLY_FIELD_TYPES } from './mirror-schema.js';
import type { Cells } from './record-state.js';

/** One record's write: a re-creation with its values, or the fields of an existing record set back. */
export interface RestoreItem {
  recordId: string;
  action: 'create' | 'update';
  /** What is sent, links to records this restore re-creates left out (set in a second pass). */
  fields: Cells;
  /** Link cells that name records this restore re-creates: sent again once their new ids are known. */
  links: Record<string, string[]>;
}

export interface PlanContext {
  /** The table's fields upstream now, by id. */
  fields: Map<string, MirrorField>;
  /** Records re-created by this restore. */
  recreated: ReadonlySet<string>;
  /** Records deleted now (a link to one of them cannot be written). */
  isDeleted: (recordId: string) => boolean;
  /** Records an earlier restore re-created: old id → new id (a link to the old one is pointed at the new one). */
  restoredAs: ReadonlyMap<string, string>;
  /** Field ids left out: gone upstream, or of a type the API cannot write. */
  skipped: Set<string>;
}

/** The cells a write sends for `values`, and the links that wait for re-created records' new ids. */
export function writableCells(values: Cells, context: PlanContext): Pick<RestoreItem, 'fields' | 'links'> {
  const fields: Cells = {};
  const links: Record<string, string[]> = {};
  for (const [fieldId, value] of Object.entries(values)) {
    const field = context.fields.get(fieldId);
    if (!field || READ_ONLY_FIELD_TYPES.has(field.type)) {
      context.skipped.add(fieldId);
      continue;
    }
    if (field.type === 'multipleRecordLinks' && Array.isArray(value)) {
      const ids = value.filter((id): id is string => typeof id === 'string').map((id) => context.restoredAs.get(id) ?? id);
      const later = ids.filter((id) => context.recreated.has(id));
      if (later.length) links[fieldId] = ids.filter((id) => context.recreated.has(id) || !context.isDeleted(id));
      fields[fieldId] = ids.filter((id) => !context.recreated.has(id) && !context.isDeleted(id));
      continue;
    }
    fields[fieldId] = writableValue(field.type, value);
  }
  return { fields, links };
}

/** Read-format values that the write API wants otherwise: attachments by URL, collaborators by id. */
function writableValue(type: string, value: unknown): unknown {
  if (type === 'multipleAttachments' && Array.isArray(value)) {
    return value.map((item) => {
      const attachment = item as { url?: unknown; filename?: unknown };
      return attachment.filename === undefined ? { url: attachment.url } : { url: attachment.url, filename: attachment.filename };
    });
  }
  if (type === 'singleCollaborator') return collaborator(value);
  if (type === 'multipleCollaborators' && Array.isArray(value)) return value.map(collaborator);
  return value;
}

function collaborator(value: unknown): unknown {
  const person = value as { id?: unknown; email?: unknown } | null;
  return person && typeof person.id === 'string' ? { id: person.id } : value;
}

/** The cells of an existing record to send: each field (of `only`) whose value at the instant differs from now. */
export function changedBack(then: Cells, now: Cells, only: ReadonlySet<string> | undefined): Cells {
  const changed: Cells = {};
  for (const fieldId of new Set([...Object.keys(then), ...Object.keys(now)])) {
    if (only && !only.has(fieldId)) continue;
    if (JSON.stringify(then[fieldId]) !== JSON.stringify(now[fieldId])) changed[fieldId] = then[fieldId] ?? null;
  }
  return changed;
}
