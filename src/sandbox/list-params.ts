import { z } from 'zod';
import { isLocale, isTimeZone } from './locale-params.js';
import { invalidRequest } from './sandbox-errors.js';

export interface SortSpec {
  field: string;
  direction: 'asc' | 'desc';
}

export interface ListParams {
  pageSize: number;
  maxRecords?: number;
  offset?: string;
  view?: string;
  sort: SortSpec[];
  filterByFormula: string;
  fields?: string[];
  returnFieldsByFieldId: boolean;
  commentCount: boolean;
}

/** cellFormat=string is not emulated: only the default json format is accepted. */
const listParamsSchema = z.strictObject({
  pageSize: z.number().int().min(1).max(100).optional(),
  maxRecords: z.number().int().min(1).optional(),
  offset: z.string().optional(),
  view: z.string().optional(),
  sort: z.array(z.strictObject({ field: z.string(), direction: z.enum(['asc', 'desc']).optional() })).optional(),
  filterByFormula: z.string().optional(),
  fields: z.array(z.string()).optional(),
  returnFieldsByFieldId: z.boolean().optional(),
  cellFormat: z.literal('json').optional(),
  recordMetadata: z.array(z.literal('commentCount')).optional(),
  includeDateDependencyMetadata: z.boolean().optional(),
  timeZone: z.string().refine(isTimeZone).optional(),
  userLocale: z.string().refine(isLocale).optional(),
});

/** The only parameters the POST takes from the query string (airtable.js repeats them in the body). */
const LOCALE_PARAMS = new Set(['timeZone', 'userLocale']);
const NUMBERS = new Set(['pageSize', 'maxRecords']);
const BOOLEANS = new Set(['returnFieldsByFieldId', 'includeDateDependencyMetadata']);
const STRINGS = new Set(['offset', 'view', 'filterByFormula', 'cellFormat', 'timeZone', 'userLocale']);
const ARRAY_KEY = /^(fields|recordMetadata)\[(\d*)\]$/;
const SORT_KEY = /^sort\[(\d+)\]\[(field|direction)\]$/;

/** GET form: arrays as `fields[]=a` or `fields[0]=a`, sort as `sort[0][field]=x`. */
export function listParamsFromQuery(query: URLSearchParams): ListParams {
  const raw: Record<string, unknown> = {};
  const arrays: Record<string, Array<[number, string]>> = {};
  const sorts = new Map<number, Record<string, string>>();
  for (const [key, value] of query) {
    if (key === 'offset' && value === '') continue; // pyAirtable and others send `offset=` for the first page
    const arrayMatch = ARRAY_KEY.exec(key);
    const sortMatch = SORT_KEY.exec(key);
    if (arrayMatch) {
      arrays[arrayMatch[1]] ??= [];
      const items = arrays[arrayMatch[1]];
      items.push([arrayMatch[2] === '' ? items.length : Number(arrayMatch[2]), value]);
    } else if (sortMatch) {
      const entry = sorts.get(Number(sortMatch[1])) ?? {};
      entry[sortMatch[2]] = value;
      sorts.set(Number(sortMatch[1]), entry);
    } else if (!(key in raw)) {
      raw[key] = scalarFromQuery(key, value);
    }
  }
  for (const [key, items] of Object.entries(arrays)) raw[key] = items.sort((a, b) => a[0] - b[0]).map(([, value]) => value);
  if (sorts.size > 0) raw.sort = [...sorts.entries()].sort((a, b) => a[0] - b[0]).map(([, entry]) => entry);
  return finish(raw);
}

/**
 * POST listRecords form: parameters in the JSON body; timeZone and userLocale in the query string, where the
 * platform reads them. The body airtable.js sends is accepted as it is: `method` (its own option, "get" or
 * "post") is ignored, `offset: null` (or "") counts as absent, and timeZone/userLocale repeated in the body are checked
 * like the query's (the query's win).
 */
export function listParamsFromBody(body: unknown, query: URLSearchParams): ListParams {
  const { method, ...raw } = body === undefined ? {} : asObject(body);
  if (method !== undefined && method !== 'get' && method !== 'post') throw invalidRequest();
  if (raw.offset === null || raw.offset === '') delete raw.offset;
  const merged: Record<string, unknown> = { ...raw };
  for (const [key, value] of query) {
    if (!LOCALE_PARAMS.has(key)) throw invalidRequest();
    merged[key] = value;
  }
  finish(pick(raw, LOCALE_PARAMS)); // the body's own values must be valid too, even where the query overrides them
  return finish(merged);
}

function scalarFromQuery(key: string, value: string): unknown {
  if (NUMBERS.has(key)) return /^\d+$/.test(value) ? Number(value) : value;
  if (BOOLEANS.has(key)) {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    return value;
  }
  if (STRINGS.has(key)) return value;
  throw invalidRequest();
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest();
  return body as Record<string, unknown>;
}

function pick(raw: Record<string, unknown>, keys: Set<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([key]) => keys.has(key)));
}

function finish(raw: Record<string, unknown>): ListParams {
  const parsed = listParamsSchema.safeParse(raw);
  if (!parsed.success) throw invalidRequest();
  const params = parsed.data;
  return {
    pageSize: params.pageSize ?? 100,
    maxRecords: params.maxRecords,
    offset: params.offset,
    view: params.view,
    sort: (params.sort ?? []).map((entry) => ({ field: entry.field, direction: entry.direction ?? 'asc' })),
    filterByFormula: params.filterByFormula ?? '',
    fields: params.fields,
    returnFieldsByFieldId: params.returnFieldsByFieldId ?? false,
    commentCount: params.recordMetadata?.includes('commentCount') ?? false,
  };
}

/** Get-record accepts only the read-format parameters. */
export function readParamsFromQuery(query: URLSearchParams): { returnFieldsByFieldId: boolean } {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of query) {
    if (!['returnFieldsByFieldId', 'cellFormat', 'timeZone', 'userLocale'].includes(key)) throw invalidRequest();
    raw[key] = scalarFromQuery(key, value);
  }
  return { returnFieldsByFieldId: finish(raw).returnFieldsByFieldId };
}
