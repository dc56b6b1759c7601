import { createRandom, hashSeed, type Random } from '../../src/sandbox/prng.js';
import type { MirrorSchema, MirrorTable } from '../../src/services/mirror/mirror-schema.js';
import type { Cells } from '../../src/services/mirror/record-state.js';

/**
 * Synthetic content for the mirror's own tables (parts 3, 4 and 6 of the mirror bench): tables of 50 fields shaped
 * like the sandbox's large base with `fieldsPerTable: 50` (Name, Amount, Files with two attachments, then text,
 * number, long text, checkbox, e-mail and date fields, a fifth of them empty), cells as the REST API returns them.
 */
export const BENCH_FIELDS_PER_TABLE = 50;
const EXTRA_TYPES = ['singleLineText', 'number', 'multilineText', 'checkbox', 'email', 'date'] as const;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An upstream-style id: a prefix and 14 letters or digits, from the stream given. */
export function upstreamId(prefix: string, random: Random): string {
  let id = prefix;
  for (let i = 0; i < 14; i++) id += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return id;
}

export function benchSchema(tables: number): MirrorSchema {
  const random = createRandom(hashSeed('mirror bench schema'));
  return {
    tables: Array.from({ length: tables }, (_, t): MirrorTable => {
      const fields = [
        { id: upstreamId('fld', random), name: 'Name', type: 'singleLineText' },
        { id: upstreamId('fld', random), name: 'Amount', type: 'number' },
        { id: upstreamId('fld', random), name: 'Files', type: 'multipleAttachments' },
        ...Array.from({ length: BENCH_FIELDS_PER_TABLE - 3 }, (_, f) => ({
          id: upstreamId('fld', random),
          name: `Field ${f + 4}`,
          type: EXTRA_TYPES[f % EXTRA_TYPES.length],
        })),
      ];
      return { id: upstreamId('tbl', random), name: `Table ${t + 1}`, primaryFieldId: fields[0].id, fields };
    }),
  };
}

/** `count` distinct record ids. */
export function recordIds(count: number, seed: string): string[] {
  const random = createRandom(hashSeed('mirror bench records', seed));
  const ids = new Set<string>();
  while (ids.size < count) ids.add(upstreamId('rec', random));
  return [...ids];
}

/** The whole record `index` of a table, empty cells left out. */
export function recordCells(table: MirrorTable, index: number): Cells {
  const random = createRandom(hashSeed('mirror bench cells', table.id, index));
  const cells: Cells = { [table.fields[0].id]: `Record ${index + 1}` };
  if (index % 10 !== 9) cells[table.fields[1].id] = 1 + Math.floor(random() * 1000);
  cells[table.fields[2].id] = attachments(random, 2);
  for (const field of table.fields.slice(3)) {
    const value = cellValue(field.type, random);
    if (value !== undefined) cells[field.id] = value;
  }
  return cells;
}

/** The cells an edit changes: one to three fields, a file list now and then; null clears a cell. */
export function editedCells(table: MirrorTable, random: Random): Cells {
  const cells: Cells = {};
  const edits = 1 + Math.floor(random() * 3);
  for (let i = 0; i < edits; i++) {
    if (random() < 0.05) {
      cells[table.fields[2].id] = random() < 0.2 ? null : attachments(random, 1 + Math.floor(random() * 3));
      continue;
    }
    const field = table.fields[3 + Math.floor(random() * (table.fields.length - 3))];
    cells[field.id] = cellValue(field.type, random) ?? null;
  }
  return cells;
}

function cellValue(type: string, random: Random): unknown {
  const roll = random();
  if (roll < 0.2) return undefined;
  const n = Math.floor(roll * 1_000_000);
  switch (type) {
    case 'number':
      return Math.round(roll * 1_000_000) / 100;
    case 'multilineText':
      return `Notes ${n}: a longer text that spans a line or two, as descriptions and comments in a base do.`;
    case 'checkbox':
      return true;
    case 'email':
      return `person${n}@example.com`;
    case 'date':
      return new Date(Date.UTC(2023, 0, 1) + n * 60_000).toISOString().slice(0, 10);
    default:
      return `Value ${n}`;
  }
}

/** Attachments as the REST API returns them (a PDF: two thumbnails); every 50th without a size, as in the sandbox. */
function attachments(random: Random, count: number): unknown[] {
  return Array.from({ length: count }, () => {
    const id = upstreamId('att', random);
    const url = (size: string) => `https://dl.airtable.test/attachments/${id}/thumbnails/${size}`;
    const file: Record<string, unknown> = {
      id,
      url: `https://dl.airtable.test/attachments/${id}/report.pdf`,
      filename: 'report.pdf',
      type: 'application/pdf',
      thumbnails: { small: { url: url('small'), width: 28, height: 36 }, large: { url: url('large'), width: 396, height: 512 } },
    };
    if (random() >= 0.02) file.size = 10_000 + Math.floor(random() * 5_000_000);
    return file;
  });
}
