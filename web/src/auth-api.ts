// The session endpoints of CONTRACT §9 (/auth/*): the only REST the web application calls.
import { sessionEnded } from './session-end.js';

export interface Session {
  user: { id: string; email: string };
  account: { id: string; name: string };
  csrfToken: string;
}

/** An answer of the API that is not a success, with the API's own message to show. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * Where a 401 is the answer itself, not an ended session: a wrong e-mail or password, no session yet, or no
 * session for a sign-up or a one-time link.
 */
const SIGNED_OUT_PATHS = new Set(['/auth/sign-in', '/auth/sign-up', '/auth/set-password', '/auth/session']);

async function call<T>(method: string, path: string, body?: unknown, csrfToken?: string): Promise<T | undefined> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (res.status === 204) return undefined;
  const data = (await res.json().catch(() => ({}))) as { message?: string; code?: string };
  if (res.status === 401 && !SIGNED_OUT_PATHS.has(path)) sessionEnded();
  if (!res.ok) throw new ApiError(data.message ?? `The server answered ${res.status}`, res.status, data.code);
  return data as T;
}

/**
 * Whether the page was served to a signed-in browser: the server says so in a meta tag (src/web/web.routes.ts), so
 * that a signed-out visit does not ask for a session it does not have (a 401 in the console).
 */
export const servedSignedIn = () => document.querySelector('meta[name="basewatch-session"]')?.getAttribute('content') === 'active';

/** The signed-in session, or null when there is none. `first`: the page's first look, which the served page answers. */
export async function loadSession({ first = false } = {}): Promise<Session | null> {
  if (first && !servedSignedIn()) return null;
  try {
    return (await call<Session>('GET', '/auth/session')) ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const signIn = async (email: string, password: string) => (await call<Session>('POST', '/auth/sign-in', { email, password }))!;

export const signUp = async (email: string, password: string, accountName?: string) =>
  (await call<Session>('POST', '/auth/sign-up', { email, password, ...(accountName ? { accountName } : {}) }))!;

export const signOut = async (csrfToken: string) => {
  await call('POST', '/auth/sign-out', undefined, csrfToken);
};

export interface SessionInfo {
  id: string;
  userAgent: string | null;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  current: boolean;
}

/** Ends every session of the user; this browser gets a fresh cookie (and CSRF token, read with loadSession). */
export const changePassword = async (csrfToken: string, currentPassword: string, newPassword: string) => {
  await call('POST', '/auth/password', { currentPassword, newPassword }, csrfToken);
};

/** Consumes the CLI's one-time link (`/set-password?token=…`) and signs this browser in. */
export const setPassword = async (token: string, password: string) => {
  await call('POST', '/auth/set-password', { token, password });
};

export const listSessions = async () => (await call<{ sessions: SessionInfo[] }>('GET', '/auth/sessions'))!.sessions;

/** Signs the user out everywhere, this browser included. */
export const endAllSessions = async (csrfToken: string) => {
  await call('DELETE', '/auth/sessions', undefined, csrfToken);
};
