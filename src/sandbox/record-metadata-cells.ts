import type { ChangeActor } from './sandbox-change.types.js';
import type { Cells, SandboxTable } from './sandbox.types.js';

/**
 * The computed cells the platform fills from a record's own history (field model,
 * airtable.com/developers/web/api/field-model): `autoNumber` "automatically incremented unique counter for each
 * record", `createdTime` / `createdBy` when the record is created, `lastModifiedTime` / `lastModifiedBy` when one of
 * the fields it watches (`options.referencedFieldIds`; none named: every field) changes, creation included.
 * Formulas, rollups, counts and lookups need an engine the sandbox does not have: they keep their seeded values.
 */
export function stampCreated(table: SandboxTable, cells: Cells, at: { createdTime: string; autoNumber: number; actor: ChangeActor }): void {
  const user = collaborator(at.actor);
  for (const field of table.fields) {
    if (field.type === 'autoNumber') cells[field.id] = at.autoNumber;
    else if (field.type === 'createdTime' || field.type === 'lastModifiedTime') cells[field.id] = at.createdTime;
    else if ((field.type === 'createdBy' || field.type === 'lastModifiedBy') && user) cells[field.id] = user;
  }
}

/** `changedFieldIds`: the fields the write changed (computed ones are never among them). */
export function stampModified(
  table: SandboxTable,
  cells: Cells,
  changedFieldIds: string[],
  at: { time: string; actor: ChangeActor },
): void {
  const user = collaborator(at.actor);
  for (const field of table.fields) {
    if (field.type !== 'lastModifiedTime' && field.type !== 'lastModifiedBy') continue;
    const watched = field.options?.referencedFieldIds;
    const watches = !Array.isArray(watched) || watched.length === 0 || changedFieldIds.some((id) => watched.includes(id));
    if (!watches) continue;
    if (field.type === 'lastModifiedTime') cells[field.id] = at.time;
    else if (user) cells[field.id] = user;
  }
}

/** The next number of each autoNumber field: one past the highest held by a record (deleted numbers may recur). */
export function nextAutoNumber(table: SandboxTable): number {
  const fieldIds = table.fields.filter((field) => field.type === 'autoNumber').map((field) => field.id);
  let highest = 0;
  if (fieldIds.length === 0) return 1;
  for (const record of table.records.values()) {
    for (const id of fieldIds) {
      const value = record.cellsByFieldId[id];
      if (typeof value === 'number' && value > highest) highest = value;
    }
  }
  return highest + 1;
}

function collaborator(actor: ChangeActor) {
  const { user } = actor;
  if (!user) return undefined;
  return user.name === undefined ? { id: user.id, email: user.email } : { id: user.id, email: user.email, name: user.name };
}
