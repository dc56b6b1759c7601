import type { ZodType, z } from 'zod';
import { invalidRequest } from '../errors.js';

/**
 * Checks a mutation input (or another argument object) with the service's input schema (a `*.input.ts` module under
 * src/services, which REST validates its body or query with too), so both answer the same values with the same
 * `invalid_request`. Fields left out or given as null count as not sent (GraphQL has no optional non-null input).
 * `argument` names the argument in messages.
 */
export function parseInput<S extends ZodType>(
  schema: S,
  fields: Record<string, unknown>,
  argument = 'input',
  /** The GraphQL names of the schema's keys where they differ (`limit` is the field's `first`). */
  names: Record<string, string> = {},
): z.output<S> {
  return check(
    schema,
    Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)),
    argument,
    names,
  );
}

/** As parseInput, for inputs where null means something (`plan: null` clears a limit): only fields left out are not sent. */
export function parseInputKeepingNulls<S extends ZodType>(schema: S, fields: Record<string, unknown>, argument = 'input'): z.output<S> {
  return check(schema, Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)), argument);
}

function check<S extends ZodType>(
  schema: S,
  body: Record<string, unknown>,
  argument: string,
  names: Record<string, string> = {},
): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const named = (path: PropertyKey[]) => path.map((key, i) => (i === 0 ? (names[String(key)] ?? String(key)) : String(key)));
  throw invalidRequest(parsed.error.issues.map((issue) => `${[argument, ...named(issue.path)].join('.')}: ${issue.message}`).join('; '));
}
