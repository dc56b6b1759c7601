import { useEffect, useState } from 'preact/hooks';
import { endAllSessions, listSessions, type SessionInfo } from '../auth-api.js';
import { ErrorMessage } from '../form.js';
import { Time } from '../format.js';
import { navigate } from '../router.js';
import { useSession } from '../session-context.js';
import { describeUserAgent } from './user-agent.js';
import { signingOutHere } from '../session-end.js';

/** The user's live sessions, and "sign out everywhere" (this browser included). */
export function SessionsSection() {
  const { session, setSession } = useSession();
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    listSessions().then(setSessions, setError);
  }, [session.csrfToken]);
  const signOutEverywhere = async () => {
    try {
      signingOutHere();
      await endAllSessions(session.csrfToken);
      setSession(null);
      navigate('/sign-in', { replace: true });
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Active sessions</h2>
      <ErrorMessage error={error} />
      {sessions && (
        <ul class="sessions" data-testid="sessions">
          {sessions.map((s) => (
            <li key={s.id}>
              <span title={s.userAgent ?? undefined}>{describeUserAgent(s.userAgent)}</span>
              {s.current && (
                <>
                  {' '}
                  <span class="badge ok">This browser</span>
                </>
              )}{' '}
              · last used <Time value={s.lastUsedAt} /> · ends <Time value={s.expiresAt} />
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="danger-quiet" onClick={signOutEverywhere}>
        Sign out everywhere
      </button>
    </section>
  );
}
