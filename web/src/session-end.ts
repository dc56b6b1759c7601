// The one place that hears "this browser's session is over": a 401 from /graphql or /auth/*, an `unauthorized`
// GraphQL error, or the subscription socket closed for the session (4403). The application (app.tsx) listens and
// sends the person to sign-in, then back to the page they were on.

const listeners = new Set<() => void>();
/** Set while this browser signs out itself: the socket closing for it is no news. */
let signingOut = false;

/** Tells the application the session ended (signed out elsewhere, password changed, expired). */
export function sessionEnded(): void {
  if (signingOut) return;
  for (const listener of listeners) listener();
}

/** This browser is signing out (or out everywhere): what follows from it is expected. Until the next sign-in. */
export function signingOutHere(): void {
  signingOut = true;
}

/** A new session began: an end is news again. */
export function sessionStarted(): void {
  signingOut = false;
}

/** Calls `listener` whenever the session ends; returns the unsubscribe. */
export function onSessionEnded(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** What the sign-in page says when it was reached because a session ended. */
export const SESSION_ENDED_MESSAGE = 'Your session ended; sign in again';
