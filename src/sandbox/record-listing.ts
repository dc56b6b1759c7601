import type { IteratorRegistry } from './iterator-registry.js';
import type { ListParams, SortSpec } from './list-params.js';
import { findField } from './record-mutations.js';
import { toRecordResponse, type RecordResponse } from './record-response.js';
import { invalidFilterByFormula, unknownFieldName, viewNotFound } from './sandbox-errors.js';
import type { CellValue, SandboxField, SandboxRecord, SandboxTable } from './sandbox.types.js';

export interface RecordPage {
  records: RecordResponse[];
  /** Present only when another page exists: `itr…/rec…`, the rec part being the last record of this page. */
  offset?: string;
}

interface ResolvedSort {
  field: SandboxField;
  direction: SortSpec['direction'];
}

/**
 * One page of list-records. filterByFormula is emulated only when empty; any formula is refused with
 * INVALID_FILTER_BY_FORMULA rather than silently ignored.
 */
export function listRecordPage(iterators: IteratorRegistry, baseId: string, table: SandboxTable, params: ListParams): RecordPage {
  const fieldIds = resolveFieldIds(table, params.fields);
  if (params.view !== undefined && !table.views.some((view) => view.id === params.view || view.name === params.view)) {
    throw viewNotFound(params.view);
  }
  if (params.filterByFormula.trim() !== '') throw invalidFilterByFormula(params.filterByFormula);
  const sort = resolveSort(table, params.sort);
  const resumed = params.offset === undefined ? undefined : iterators.resume(params.offset, baseId, table.id);
  const recordIds = resumed?.iterator.recordIds ?? orderedRecordIds(table, sort, params.maxRecords);
  const page = collectPage(table, recordIds, resumed?.position ?? 0, params.pageSize);
  const view = { fieldIds, byFieldId: params.returnFieldsByFieldId, commentCount: params.commentCount };
  const records = page.records.map((record) => toRecordResponse(table, record, view));
  const last = page.records.at(-1);
  if (!last || page.next >= recordIds.length) return { records };
  const iterator = resumed?.iterator ?? iterators.start(baseId, table.id, recordIds);
  return { records, offset: iterators.issue(iterator, last.id, page.next) };
}

function resolveFieldIds(table: SandboxTable, names: string[] | undefined): Set<string> | undefined {
  if (names === undefined) return undefined;
  return new Set(names.map((name) => (findField(table, name) ?? throwUnknownField(name)).id));
}

function resolveSort(table: SandboxTable, sort: SortSpec[]): ResolvedSort[] {
  return sort.map((entry) => ({ field: findField(table, entry.field) ?? throwUnknownField(entry.field), direction: entry.direction }));
}

function throwUnknownField(name: string): never {
  throw unknownFieldName(name);
}

function orderedRecordIds(table: SandboxTable, sort: ResolvedSort[], maxRecords: number | undefined): string[] {
  let records = [...table.records.values()];
  if (sort.length > 0) records = records.sort((a, b) => compareRecords(a, b, sort));
  const ids = records.map((record) => record.id);
  return maxRecords === undefined ? ids : ids.slice(0, maxRecords);
}

/** Records deleted since the listing started are skipped. */
function collectPage(table: SandboxTable, recordIds: string[], start: number, pageSize: number) {
  const records: SandboxRecord[] = [];
  let next = start;
  while (next < recordIds.length && records.length < pageSize) {
    const record = table.records.get(recordIds[next++]);
    if (record) records.push(record);
  }
  return { records, next };
}

function compareRecords(a: SandboxRecord, b: SandboxRecord, sort: ResolvedSort[]): number {
  for (const { field, direction } of sort) {
    const order = compareCells(a.cellsByFieldId[field.id], b.cellsByFieldId[field.id]);
    if (order !== 0) return direction === 'asc' ? order : -order;
  }
  return 0;
}

/** Basic ordering: empty first, numbers and booleans numerically, everything else by its text. */
function compareCells(a: CellValue | undefined, b: CellValue | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')) {
    return Number(a) - Number(b);
  }
  return sortText(a).localeCompare(sortText(b), 'en');
}

function sortText(value: CellValue): string {
  if (!Array.isArray(value)) return typeof value === 'object' ? JSON.stringify(value) : String(value);
  return value
    .map((item: unknown) => {
      if (typeof item !== 'object' || item === null) return String(item);
      const entry = item as Record<string, unknown>;
      return String(entry.filename ?? entry.name ?? entry.id ?? '');
    })
    .join(', ');
}
