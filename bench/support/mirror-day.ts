import { userFromEmail, type ChangeActor, type Sandbox, type SandboxField } from '../../src/sandbox/index.js';
import { createRandom, hashSeed, type Random } from '../../src/sandbox/prng.js';

const BATCH = 10;
const ACTORS: ChangeActor[] = [
  { source: 'client', user: userFromEmail('ann@example.com', 'Ann') },
  { source: 'client', user: userFromEmail('bob@example.com', 'Bob') },
  { source: 'automation' },
  { source: 'publicApi', user: userFromEmail('integration@example.com', 'Integration') },
  { source: 'formSubmission' },
];

export interface DayOfChanges {
  updates: number;
  creates: number;
  deletes: number;
  writes: number;
}

/**
 * A day of `changes` record changes made in the sandbox as people and automations make them, 10 records a write
 * (each write one webhook payload): 80 % edits of 1–3 cells (now and then a file list), 10 % creates, 10 % deletions,
 * on tables and records picked at random. Written through the store, so no request of the base's budget is spent.
 */
export function makeDayOfChanges(sandbox: Sandbox, baseId: string, changes: number): DayOfChanges {
  const random = createRandom(hashSeed('mirror bench day'));
  const base = sandbox.store.requireBase(baseId);
  const live = base.tables.map((table) => [...table.records.keys()]);
  const made: DayOfChanges = { updates: 0, creates: 0, deletes: 0, writes: 0 };
  for (let done = 0; done < changes; done += BATCH) {
    const t = Math.floor(random() * base.tables.length);
    const table = base.tables[t];
    const ids = live[t];
    const actor = ACTORS[Math.floor(random() * ACTORS.length)];
    const n = Math.min(BATCH, changes - done);
    const roll = random();
    if (roll < 0.1) {
      const fields = Array.from({ length: n }, (_, i) => newRecord(table.fields, random, done + i));
      for (const record of sandbox.store.createRecords(baseId, table.id, fields, { actor })) ids.push(record.id);
      made.creates += n;
    } else if (roll < 0.2) {
      const picked = Array.from({ length: n }, () => takeAt(ids, Math.floor(random() * ids.length)));
      sandbox.store.deleteRecords(baseId, table.id, picked, actor);
      made.deletes += n;
    } else {
      const picked = new Set<string>();
      while (picked.size < n) picked.add(ids[Math.floor(random() * ids.length)]);
      const updates = [...picked].map((id) => ({ id, fields: editedFields(table.fields, random) }));
      sandbox.store.updateRecords(baseId, table.id, updates, { actor });
      made.updates += n;
    }
    made.writes += 1;
  }
  return made;
}

function takeAt(ids: string[], index: number): string {
  const id = ids[index];
  ids[index] = ids[ids.length - 1];
  ids.pop();
  return id;
}

function newRecord(fields: SandboxField[], random: Random, n: number): Record<string, unknown> {
  const cells: Record<string, unknown> = { Name: `New record ${n + 1}`, Amount: Math.floor(random() * 1000), Files: files(random, n) };
  for (const field of fields.slice(3)) if (random() < 0.5) cells[field.id] = valueFor(field, random);
  return cells;
}

function editedFields(fields: SandboxField[], random: Random): Record<string, unknown> {
  const cells: Record<string, unknown> = {};
  const edits = 1 + Math.floor(random() * 3);
  for (let i = 0; i < edits; i++) {
    if (random() < 0.05) {
      cells.Files = random() < 0.2 ? null : files(random, i);
      continue;
    }
    const field = fields[3 + Math.floor(random() * (fields.length - 3))];
    cells[field.id] = random() < 0.1 ? null : valueFor(field, random);
  }
  return cells;
}

function valueFor(field: SandboxField, random: Random): unknown {
  const n = Math.floor(random() * 1_000_000);
  switch (field.type) {
    case 'number':
      return n / 100;
    case 'multilineText':
      return `Edited notes ${n}: what changed today, in a sentence or two.`;
    case 'checkbox':
      return random() < 0.5;
    case 'email':
      return `edited${n}@example.com`;
    case 'date':
      return new Date(Date.UTC(2024, 0, 1) + n * 60_000).toISOString().slice(0, 10);
    default:
      return `Edited ${n}`;
  }
}

/** New files: the sandbox gives each a size from its url, as the platform reads a file it is given. */
function files(random: Random, n: number): Array<{ url: string; filename: string }> {
  return Array.from({ length: 1 + Math.floor(random() * 2) }, (_, i) => ({
    url: `https://files.example.com/day/${n}-${i}-${Math.floor(random() * 1e9)}.pdf`,
    filename: `day-${n}-${i}.pdf`,
  }));
}
