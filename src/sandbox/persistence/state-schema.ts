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
  owner: z.string().optional(),
});

const hash = z.string().regex(/^[0-9a-f]{64}$/);
const level = z.enum(['read', 'comment', 'edit', 'create']);
const scopeGrant = z.union([z.literal('all'), z.array(z.string())]);
const baseGrant = z.union([z.literal('all'), z.array(id)]);
const user = z.object({ id, email: z.string(), name: z.string().optional() });
const expiring = z.object({ hash, expiresAt: z.number() });

const auth = z.object({
  directory: z.object({
    users: z.array(user),
    collaborators: z.array(z.tuple([id, z.array(z.tuple([id, level]))])),
  }),
  personalTokens: z.array(z.object({ id, hash, userId: id, scopes: scopeGrant, baseIds: baseGrant, createdAt: z.string() })),
  clients: z.array(z.object({ clientId: id, secretHash: hash.nullable(), redirectUris: z.array(z.string()), scopes: z.array(z.string()) })),
  grants: z.array(
    z.object({
      id,
      clientId: id,
      userId: id,
      scopes: z.array(z.string()),
      baseIds: baseGrant,
      createdAt: z.string(),
      access: expiring,
      refresh: expiring,
      rotated: z.object({ hash, at: z.number() }).nullable(),
    }),
  ),
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
  iterators: z.object({ random: uint32, key: z.string().min(1).optional() }),
  auth: auth.optional(),
});

/** The parsed state, or the first problem found (the caller treats the file as corrupt). */
export function checkState(value: unknown): { state: SandboxState } | { problem: string } {
  const parsed = stateSchema.safeParse(value);
  if (parsed.success) return { state: value as SandboxState };
  const issue = parsed.error.issues[0]!;
  return { problem: `${issue.path.join('.') || 'file'}: ${issue.message}` };
}
