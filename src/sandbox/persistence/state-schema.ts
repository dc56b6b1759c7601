import { z } from 'zod';
import { STATE_FORMAT, STATE_VERSION, type SandboxState } from './saved-state.js';

// Checks the shape the sandbox relies on; cell values and payload bodies are taken as they were written.
const id = z.string().min(1);
const uint32 = z.number().int().min(0).max(0xffffffff);
const plainObject = z.record(z.string(), z.unknown());

const field = z.looseObject({ id, name: z.string(), type: z.string() });
const record = z.object({ id, createdTime: z.string(), cellsByFieldId: plainObject });
const table = z.looseObject({
  id,
  name: z.string(),
  primaryFieldId: id,
  fields: z.array(field),
  views: z.array(z.looseObject({ id, name: z.string(), type: z.literal('grid') })),
  records: z.array(record),
});
const base = z.looseObject({ id, name: z.string(), permissionLevel: z.literal('create'), tables: z.array(table) });

const webhook = z.looseObject({
  id,
  baseId: id,
  notificationUrl: z.string().nullable(),
  macSecretBase64: z.string(),
  specification: plainObject,
  resolved: z.looseObject({ filters: plainObject, includes: plainObject }),
  expiresAt: z.number(),
  failed: z.boolean(),
  areNotificationsEnabled: z.boolean(),
  cursorForNextPayload: z.number().int().positive(),
  payloads: z.array(z.object({ cursor: z.number().int().positive(), createdAt: z.number(), payload: plainObject })),
  lastNotificationResult: plainObject.nullable(),
  lastSuccessfulNotificationTime: z.string().nullable(),
});

const stateSchema = z.object({
  format: z.literal(STATE_FORMAT),
  version: z.literal(STATE_VERSION),
  savedAt: z.string(),
  store: z.object({ random: uint32, largeBases: z.number().int().min(0), bases: z.array(base) }),
  webhooks: z.object({
    random: uint32,
    webhooks: z.array(webhook),
    transactionNumbers: z.array(z.tuple([id, z.number().int().min(0)])),
  }),
  iterators: z.object({ random: uint32 }),
});

/** The parsed state, or the first problem found (the caller treats the file as corrupt). */
export function checkState(value: unknown): { state: SandboxState } | { problem: string } {
  const parsed = stateSchema.safeParse(value);
  if (parsed.success) return { state: value as SandboxState };
  const issue = parsed.error.issues[0]!;
  return { problem: `${issue.path.join('.') || 'file'}: ${issue.message}` };
}
