import type { Request } from 'express';
import type { z } from 'zod';
import { actorFromHeaders } from './actor.js';
import { principalOf } from './auth/principal.js';
import type { ChangeActor } from './sandbox-change.types.js';
import { invalidRequest } from './sandbox-errors.js';

export function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) throw invalidRequest();
  return parsed.data;
}

export function actorOf(req: Request): ChangeActor {
  return actorFromHeaders((name) => req.get(name), principalOf(req)?.user);
}

/** Parsed here rather than through req.query, whose shape depends on the host app's query parser setting. */
export function searchParamsOf(req: Request): URLSearchParams {
  const start = req.url.indexOf('?');
  return new URLSearchParams(start === -1 ? '' : req.url.slice(start + 1));
}
