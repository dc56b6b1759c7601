import { AppError, notFound } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Row ids of the service are lower-case UUIDs; anything else cannot name a row (and answers 404, not 400). */
export const isServiceId = (id: string): boolean => UUID.test(id);

/**
 * 404 for an id that names no row. Callers who sent the upstream's `app…` id where the service's own id belongs
 * are told so: both ids appear side by side in every response.
 */
export function notFoundById(what: string, id: string): AppError {
  if (!/^app[A-Za-z0-9]{14}$/.test(id)) return notFound(what);
  return new AppError('not_found', `${what} not found: ${id} is an upstream base id; this path takes the service's id (the UUID in "id")`);
}
