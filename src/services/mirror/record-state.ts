export type Cells = Record<string, unknown>;

/** Every KEYFRAME_EVERY-th version of a record stores the whole record, so a read folds at most that many rows. */
export const KEYFRAME_EVERY = 16;

/** Keys sorted: two equal records give equal text, so the seed can compare them in SQL. */
export function canonicalJson(cells: Cells): string {
  const sorted: Cells = {};
  for (const key of Object.keys(cells).sort()) sorted[key] = cells[key];
  return JSON.stringify(sorted);
}

/** The record after a change of some cells (null or absent after: cleared, as the REST API omits empty cells). */
export function withChanges(current: Cells, changed: Cells): Cells {
  return changeInPlace({ ...current }, changed);
}

function changeInPlace(state: Cells, changed: Cells): Cells {
  for (const [fieldId, value] of Object.entries(changed)) {
    if (isEmpty(value)) delete state[fieldId];
    else state[fieldId] = value;
  }
  return state;
}

/** Empty cells are absent from REST answers, never present as "", [] or false. */
export function withoutEmpty(cells: Cells): Cells {
  return Object.fromEntries(Object.entries(cells).filter(([, value]) => !isEmpty(value)));
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '' || value === false || (Array.isArray(value) && value.length === 0);
}

export interface AttachmentStats {
  fileCount: number;
  attachmentBytes: number;
}

/** Files and bytes in the record's attachment cells, as a full count adds them up (a missing size counts 0). */
export function attachmentStats(cells: Cells, attachmentFields: readonly string[]): AttachmentStats {
  const stats = { fileCount: 0, attachmentBytes: 0 };
  for (const fieldId of attachmentFields) {
    const cell = cells[fieldId];
    if (!Array.isArray(cell)) continue;
    stats.fileCount += cell.length;
    for (const attachment of cell) {
      const size = (attachment as { size?: unknown } | null)?.size;
      if (typeof size === 'number' && Number.isFinite(size) && size > 0) stats.attachmentBytes += size;
    }
  }
  return stats;
}

export interface StoredVersion {
  seq: number;
  at: string;
  eventType: string;
  source: string;
  userEmail: string | null;
  full: boolean;
  fields: Cells;
}

export interface FoldedVersion extends StoredVersion {
  /** The whole record after this version (its last values, for a deletion). */
  state: Cells;
}

/** How a fold keeps the record: start over from a whole version's fields, or change some cells. */
interface RecordFolder {
  whole(fields: Cells): void;
  change(fields: Cells): void;
}

/**
 * Folds versions given oldest first through `folder`, from the first full one on (rows before it are skipped; a
 * deletion changes nothing), calling `after` with each version once it is folded. False when none is full.
 */
function foldThrough(versions: StoredVersion[], folder: RecordFolder, after: (version: StoredVersion) => void): boolean {
  const start = versions.findIndex((version) => version.full);
  if (start === -1) return false;
  for (const version of versions.slice(start)) {
    if (version.full) folder.whole(version.fields);
    else if (version.eventType !== 'record_delete') folder.change(version.fields);
    after(version);
  }
  return true;
}

/** Folds versions given oldest first into the record after each. Returns [] when none is full. */
export function foldVersions(versions: StoredVersion[]): FoldedVersion[] {
  const folded: FoldedVersion[] = [];
  let state: Cells = {};
  const folder = {
    whole: (fields: Cells) => {
      state = { ...fields };
    },
    change: (fields: Cells) => {
      state = withChanges(state, fields);
    },
  };
  foldThrough(versions, folder, (version) => folded.push({ ...version, state }));
  return folded;
}

export interface RenderedVersion extends StoredVersion {
  /** The whole record after this version as JSON text (its last values, for a deletion). */
  stateJson: string;
}

/**
 * foldVersions with each state as JSON text. A cell is written once and its text kept while later versions leave it
 * unchanged: a page of 50 versions of a 50-field record writes the cells that changed, not 2,500 of them.
 */
export function foldVersionsToJson(versions: StoredVersion[]): RenderedVersion[] {
  const rendered: RenderedVersion[] = [];
  // Each cell's `"fieldId":value` text, in the order foldVersions' state would have its keys.
  const cells = new Map<string, string>();
  const put = (fieldId: string, value: unknown) => cells.set(fieldId, `${JSON.stringify(fieldId)}:${JSON.stringify(value)}`);
  const folder = {
    whole: (fields: Cells) => {
      cells.clear();
      for (const [fieldId, value] of Object.entries(fields)) put(fieldId, value);
    },
    change: (fields: Cells) => {
      for (const [fieldId, value] of Object.entries(fields)) {
        if (isEmpty(value)) cells.delete(fieldId);
        else put(fieldId, value);
      }
    },
  };
  foldThrough(versions, folder, (version) => rendered.push({ ...version, stateJson: `{${[...cells.values()].join(',')}}` }));
  return rendered;
}

/** The last of foldVersions(versions), without the states before it: one copy of the record, changed in place. */
export function foldLast(versions: StoredVersion[]): FoldedVersion | undefined {
  let state: Cells = {};
  const folder = {
    whole: (fields: Cells) => {
      state = { ...fields };
    },
    change: (fields: Cells) => {
      changeInPlace(state, fields);
    },
  };
  return foldThrough(versions, folder, () => undefined) ? { ...versions.at(-1)!, state } : undefined;
}
