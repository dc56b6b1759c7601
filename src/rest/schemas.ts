import { z } from './zod.js';

// Shapes only REST has. What a request body or query may hold is the services' rule (src/services/**/*.input.ts).

export const ErrorBody = z
  .strictObject({
    message: z.string(),
    code: z
      .enum([
        'invalid_request',
        'unauthorized',
        'csrf_failed',
        'forbidden',
        'not_found',
        'conflict',
        'upstream_not_connected',
        'payload_too_large',
        'rate_limited',
        'upstream_error',
        'unavailable',
        'internal',
      ])
      .optional(),
  })
  .openapi('Error');

export const Timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-21T09:00:00.000Z' });

/** A service id in a path: bounded here; whether it names anything is the service's answer (404). */
export const ServiceId = z.string().min(1).max(64).openapi({ format: 'uuid' });

/** Beside a list of the seed's exact shapes: which of its items the account's connection can no longer reach. */
export const lostIds = (items: string) =>
  z
    .array(ServiceId)
    .optional()
    .openapi({
      description: `Present only when some are: the ids of listed ${items} whose upstream base the account’s connection no longer sees (it reconnected as another upstream user, or the base was unshared). Every other endpoint answers 404 not_found for them, as for another account’s; DELETE still removes them.`,
    });
