import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './auth-api.js';

export interface SessionState {
  session: Session;
  /** After sign-out (null) or an account rename. */
  setSession(session: Session | null): void;
}

export const SessionContext = createContext<SessionState | null>(null);

/** The signed-in session; only pages inside the signed-in layout use it. */
export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside the signed-in layout');
  return state;
}
