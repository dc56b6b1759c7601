import { ApolloProvider } from '@apollo/client/react';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { loadSession, type Session } from './auth-api.js';
import { ErrorMessage } from './form.js';
import { createGraphqlClient } from './graphql-client.js';
import { SetPasswordPage } from './pages/set-password.js';
import { SettingsPage } from './pages/settings.js';
import { SignInPage } from './pages/sign-in.js';
import { SignUpPage } from './pages/sign-up.js';
import { UsagePage } from './pages/usage.js';
import { WebhooksPage } from './pages/webhooks.js';
import { AuditChangesPage } from './pages/audit-changes.js';
import { AuditConfigsPage } from './pages/audit-configs.js';
import { BasePage } from './pages/base.js';
import { navigate, useLocation } from './router.js';
import { SessionContext } from './session-context.js';

const SIGNED_OUT_PATHS = ['/sign-in', '/sign-up'];
/** Not /webhooks: that path is the REST API's (the server answers pages only for paths no API route takes). */
const WEBHOOKS_PATH = '/forwarding';

/** Loads the session, then shows the sign-in pages or the signed-in pages by path. */
export function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const csrf = useRef<string | undefined>(undefined);
  csrf.current = session?.csrfToken;
  const client = useMemo(() => createGraphqlClient(() => csrf.current), []);
  const { path, query } = useLocation();

  useEffect(() => {
    loadSession().then(setSession, setError);
  }, []);

  if (error) return <ErrorMessage error={error} />;
  if (session === undefined) return <p class="loading">Loading…</p>;

  const signedIn = (next: Session) => {
    setSession(next);
    navigate('/', { replace: true });
  };
  if (path === '/set-password') return <SetPasswordPage token={query.get('token') ?? ''} onSignedIn={signedIn} />;
  if (!session) {
    if (path === '/sign-up') return <SignUpPage onSignedIn={signedIn} />;
    if (path !== '/sign-in') queueMicrotask(() => navigate('/sign-in', { replace: true }));
    return <SignInPage onSignedIn={signedIn} />;
  }
  if (SIGNED_OUT_PATHS.includes(path)) queueMicrotask(() => navigate('/', { replace: true }));
  const base = /^\/bases\/([^/]+)$/.exec(path);
  const config = /^\/audit-log\/([^/]+)$/.exec(path);
  return (
    <ApolloProvider client={client}>
      <SessionContext.Provider value={{ session, setSession }}>
        {path === '/settings' ? (
          <SettingsPage />
        ) : path === WEBHOOKS_PATH ? (
          <WebhooksPage />
        ) : path === '/audit-log' ? (
          <AuditConfigsPage />
        ) : config ? (
          <AuditChangesPage id={decodeURIComponent(config[1])} />
        ) : base ? <BasePage id={decodeURIComponent(base[1])} /> : <UsagePage />}
      </SessionContext.Provider>
    </ApolloProvider>
  );
}
