import { ApolloProvider } from '@apollo/client/react';
import { useMemo } from 'preact/hooks';
import type { Session } from './auth-api.js';
import { createGraphqlClient } from './graphql-client.js';
import { AuditChangesPage } from './pages/audit-changes.js';
import { AuditConfigsPage } from './pages/audit-configs.js';
import { BasePage } from './pages/base.js';
import { DeletedRecordsPage } from './pages/deleted-records.js';
import { RecordHistoryPage } from './pages/record-history.js';
import { mirrorRoute } from './mirror/mirror-paths.js';
import { NotFoundPage } from './pages/not-found.js';
import { SettingsPage } from './pages/settings.js';
import { UsagePage } from './pages/usage.js';
import { WebhooksPage } from './pages/webhooks.js';
import { SessionContext } from './session-context.js';

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

interface Props {
  path: string;
  session: Session;
  setSession(session: Session | null): void;
  /** The session's CSRF token when a request is sent (it changes with a password change). */
  csrfToken: () => string | undefined;
}

/**
 * Everything behind sign-in, in a chunk of its own (Apollo Client, the pages, the chart): the sign-in page loads
 * without it. Each session gets a client of its own, so nothing read in one session shows in the next.
 */
export default function SignedInApp({ path, session, setSession, csrfToken }: Props) {
  const client = useMemo(() => createGraphqlClient(csrfToken), [session.user.id]);
  return (
    <ApolloProvider client={client}>
      <SessionContext.Provider value={{ session, setSession }}>{signedInPage(path)}</SessionContext.Provider>
    </ApolloProvider>
  );
}
