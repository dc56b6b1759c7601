import { z } from 'zod';
import { parseBody } from './request-helpers.js';
import { invalidDeleteIds, invalidRecords, invalidRequest, tooManyRecords } from './sandbox-errors.js';

export const MAX_RECORDS_PER_REQUEST = 10;

const fields = z.record(z.string(), z.unknown());
const flags = { typecast: z.boolean().optional(), returnFieldsByFieldId: z.boolean().optional() };
const singleBody = z.strictObject({ fields, ...flags });
const createManyBody = z.strictObject({ records: z.array(z.strictObject({ fields })), ...flags });
const updateManyBody = z.strictObject({ records: z.array(z.strictObject({ id: z.string(), fields })), ...flags });

export interface WriteFlags {
  typecast: boolean;
  returnFieldsByFieldId: boolean;
}

export interface CreateRequest extends WriteFlags {
  /** The single-record form `{fields}` answers with the bare record instead of `{records}`. */
  single: boolean;
  records: Array<Record<string, unknown>>;
}

export interface UpdateManyRequest extends WriteFlags {
  records: Array<{ id: string; fields: Record<string, unknown> }>;
}

export interface UpdateOneRequest extends WriteFlags {
  fields: Record<string, unknown>;
}

export function parseCreateBody(body: unknown): CreateRequest {
  if (isObject(body) && 'records' in body) {
    checkBatchSize(body.records, 'created');
    const parsed = parseBody(createManyBody, body);
    return { single: false, records: parsed.records.map((record) => record.fields), ...writeFlags(parsed) };
  }
  const parsed = parseBody(singleBody, body);
  return { single: true, records: [parsed.fields], ...writeFlags(parsed) };
}

/** Upserts (performUpsert) are not emulated and are refused. */
export function parseUpdateManyBody(body: unknown): UpdateManyRequest {
  if (isObject(body) && 'performUpsert' in body) {
    throw invalidRequest('Invalid request: performUpsert is not supported by the sandbox.');
  }
  if (isObject(body)) checkBatchSize(body.records, 'updated');
  const parsed = parseBody(updateManyBody, body);
  return { records: parsed.records, ...writeFlags(parsed) };
}

export function parseUpdateOneBody(body: unknown): UpdateOneRequest {
  const parsed = parseBody(singleBody, body);
  return { fields: parsed.fields, ...writeFlags(parsed) };
}

/** Only `records[]=id` is accepted, as by the real API; `records=id` or `records[0]=id` is refused. */
export function parseDeleteQuery(query: URLSearchParams): string[] {
  const ids: string[] = [];
  for (const [key, value] of query) {
    if (key !== 'records[]') throw key.startsWith('records') ? invalidDeleteIds() : invalidRequest();
    ids.push(value);
  }
  if (ids.length === 0 || ids.length > MAX_RECORDS_PER_REQUEST) throw invalidDeleteIds();
  return ids;
}

function checkBatchSize(records: unknown, verb: 'created' | 'updated'): void {
  if (!Array.isArray(records)) return;
  if (records.length > MAX_RECORDS_PER_REQUEST) throw tooManyRecords(verb, records.length);
  if (records.length === 0) throw invalidRecords(`At least one record must be ${verb} per request.`);
}

function writeFlags(parsed: { typecast?: boolean; returnFieldsByFieldId?: boolean }): WriteFlags {
  return { typecast: parsed.typecast ?? false, returnFieldsByFieldId: parsed.returnFieldsByFieldId ?? false };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
