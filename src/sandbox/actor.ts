import { idFromText } from './id-generator.js';
import { CHANGE_SOURCES, type ChangeActor, type ChangeSource, type ChangeUser } from './sandbox-change.types.js';
import { invalidRequest } from './sandbox-errors.js';

/** The token's owner: real publicApi and client changes always name a user, so one is supplied when none is given. */
export const SANDBOX_API_USER: ChangeUser = userFromEmail('api-user@sandbox.invalid', 'Sandbox API User');

export const DEFAULT_ACTOR: ChangeActor = { source: 'publicApi', user: SANDBOX_API_USER };

export function userFromEmail(email: string, name?: string): ChangeUser {
  const user: ChangeUser = { id: idFromText('usr', email.trim().toLowerCase()), email: email.trim() };
  if (name) user.name = name;
  return user;
}

/**
 * Reads X-Sandbox-Source, X-Sandbox-User-Email and X-Sandbox-User-Name; `tokenUser` (the token's user) is who made
 * a `publicApi` or `client` change that names no one.
 */
export function actorFromHeaders(header: (name: string) => string | undefined, tokenUser: ChangeUser = SANDBOX_API_USER): ChangeActor {
  const source = header('x-sandbox-source') ?? 'publicApi';
  if (!isChangeSource(source)) {
    throw invalidRequest(`Invalid request: X-Sandbox-Source must be one of ${CHANGE_SOURCES.join(', ')}.`);
  }
  const email = header('x-sandbox-user-email');
  if (email !== undefined) {
    if (!/^[^@\s]+@[^@\s]+$/.test(email.trim())) throw invalidRequest('Invalid request: X-Sandbox-User-Email is not an email address.');
    return { source, user: userFromEmail(email, header('x-sandbox-user-name')) };
  }
  return source === 'publicApi' || source === 'client' ? { source, user: tokenUser } : { source };
}

function isChangeSource(value: string): value is ChangeSource {
  return (CHANGE_SOURCES as readonly string[]).includes(value);
}
