const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Row ids of the service are lower-case UUIDs; anything else cannot name a row (and answers 404, not 400). */
export const isServiceId = (id: string): boolean => UUID.test(id);
