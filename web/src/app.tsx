import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { loadSession, type Session } from './auth-api.js';
import { ErrorMessage } from './form.js';
import { createGraphqlClient } from './graphql-client.js';
import { AuditChangesPage } from './pages/audit-changes.js';
import { AuditConfigsPage } from './pages/audit-configs.js';
import { BasePage } from './pages/base.js';
import { DeletedRecordsPage } from './pages/deleted-records.js';
import { NotFoundPage } from './pages/not-found.js';
import { RecordHistoryPage } from './pages/record-history.js';
import { mirrorRoute } from './mirror/mirror-paths.js';
import { SetPasswordPage } from './pages/set-password.js';
import { SettingsPage } from './pages/settings.js';
import { SignInPage } from './pages/sign-in.js';
import { SignUpPage } from './pages/sign-up.js';
import { UsagePage } from './pages/usage.js';
import { WebhooksPage } from './pages/webhooks.js';
import { navigate, useLocation } from './router.js';
import { SessionContext } from './session-context.js';
import { onSessionEnded, SESSION_ENDED_MESSAGE, sessionStarted } from './session-end.js';

const SIGNED_OUT_PATHS = ['/sign-in', '/sign-up'];

/**
 * The signed-in page of a path; "not found" for any other. Paths avoid the APIs' (`/webhooks`, `/usage`…): the server
 * answers a page only for paths no API route takes, so webhooks live at `/forwarding`.
 */
function signedInPage(path: string) {
  const id = (prefix: string) =>
    path.startsWith(prefix) && path.length > prefix.length ? decodeURIComponent(path.slice(prefix.length)) : undefined;
  const baseId = id('/bases/');
  const configId = id('/audit-log/');
  if (path === '/settings') return <SettingsPage />;
  if (path === '/forwarding') return <WebhooksPage />;
  if (path === '/audit-log') return <AuditConfigsPage />;
  const mirror = mirrorRoute(path);
  if (mirror?.page === 'history') return <RecordHistoryPage configId={mirror.configId} recordId={mirror.recordId} />;
  if (mirror?.page === 'deleted') return <DeletedRecordsPage configId={mirror.configId} />;
  if (configId) return <AuditChangesPage id={configId} />;
  if (baseId) return <BasePage id={baseId} />;
  if (path === '/') return <UsagePage />;
  return <NotFoundPage path={path} />;
}

/** Loads the session, then shows the sign-in pages or the signed-in pages by path. */
export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const csrf = useRef<string | undefined>(undefined);
  const afterSignIn = useRef('/');
  csrf.current = session?.csrfToken;
  const client = useMemo(() => createGraphqlClient(() => csrf.current), []);
  const { path, query } = useLocation();

  useEffect(() => {
    loadSession({ first: true }).then(setSession, setError);
  }, []);
  // Ended elsewhere (sign-out everywhere, a password change, expiry): to sign-in, then back to this page.
  useEffect(
    () =>
      onSessionEnded(() => {
        if (!csrf.current) return;
        csrf.current = undefined;
        if (!SIGNED_OUT_PATHS.includes(location.pathname)) afterSignIn.current = location.pathname + location.search;
        setNotice(SESSION_ENDED_MESSAGE);
        setSession(null);
        void client.clearStore();
        navigate('/sign-in', { replace: true });
      }),
    [client],
  );

  if (error) return <ErrorMessage error={error} />;
  if (session === undefined) return <p class="loading">Loading…</p>;

  const signedIn = (next: Session) => {
    setNotice(null);
    sessionStarted();
    setSession(next);
    navigate(afterSignIn.current, { replace: true });
    afterSignIn.current = '/';
  };
  if (path === '/set-password') return <SetPasswordPage token={query.get('token') ?? ''} onSignedIn={signedIn} />;
  if (!session) {
    if (path === '/sign-up') return <SignUpPage onSignedIn={signedIn} />;
    if (path !== '/sign-in') {
      // Back to the page asked for once signed in (a bookmark, a link from a colleague).
      afterSignIn.current = path + location.search;
      queueMicrotask(() => navigate('/sign-in', { replace: true }));
    }
    return <SignInPage onSignedIn={signedIn} notice={notice} />;
  }
  if (SIGNED_OUT_PATHS.includes(path)) queueMicrotask(() => navigate('/', { replace: true }));
  return (
    <ApolloProvider client={client}>
      <SessionContext.Provider value={{ session, setSession }}>{signedInPage(path)}</SessionContext.Provider>
    </ApolloProvider>
  );
}
