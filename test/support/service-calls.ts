import { ZodError, type ZodType } from 'zod';
import { AppError } from '../../src/errors.js';

/**
 * What a transport does with input before a service sees it: parse it with the service's own input schema (query
 * strings as they arrive). A refusal there is the 400 invalid_request of REST and GraphQL alike.
 */
export function parsed<T>(schema: ZodType<T>, input: Record<string, unknown>): T {
  return schema.parse(input);
}

/** The error code a call is refused with: invalid_request when the input schema refuses it, the AppError's code else. */
export async function refusal(call: () => unknown): Promise<string> {
  try {
    await call();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    if (error instanceof ZodError) return 'invalid_request';
    throw error;
  }
  return 'accepted';
}

/** Query values as a URL carries them: strings. */
export const asQuery = (query: Record<string, string | number>): Record<string, string> =>
  Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)]));
