/**
 * Global ids (Relay Global Object Identification): base64url of `Type:part[:part…]`. Opaque to clients; the parts are
 * the REST ids that identify the object (a snapshot day is its usage base and its date).
 */
export function toGlobalId(type: string, ...parts: string[]): string {
  return Buffer.from([type, ...parts].join(':'), 'utf8').toString('base64url');
}

export interface DecodedGlobalId {
  type: string;
  parts: string[];
}

/** The type and parts of a global id; undefined for anything that is not one. */
export function fromGlobalId(id: string): DecodedGlobalId | undefined {
  if (!/^[A-Za-z0-9_-]{4,400}$/.test(id)) return undefined;
  const decoded = Buffer.from(id, 'base64url').toString('utf8');
  const match = /^([A-Z][A-Za-z]{1,40}):([\x21-\x7e]+)$/.exec(decoded);
  if (!match || Buffer.from(decoded, 'utf8').toString('base64url') !== id) return undefined;
  return { type: match[1], parts: match[2].split(':') };
}

/**
 * The REST id behind an id argument that accepts both forms: a global id of `type` gives its single part, any other
 * string is taken as a REST id. A global id of another type gives undefined (the caller answers "not found").
 */
export function restIdOf(id: string, type: string): string | undefined {
  const decoded = fromGlobalId(id);
  if (!decoded) return id;
  return decoded.type === type && decoded.parts.length === 1 ? decoded.parts[0] : undefined;
}
