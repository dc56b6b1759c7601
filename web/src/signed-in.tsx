import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Session } from './auth-api.js';
import { ErrorMessage } from './form.js';
import { createGraphqlClient } from './graphql-client.js';
import { GraphqlClientContext } from './graphql-hooks.js';
import { signedInRoute } from './routes.js';
import { SessionContext } from './session-context.js';

export { BasePage } from './pages/base.js';
export { UsagePage } from './pages/usage.js';

interface Props {
  path: string;
  session: Session;
  setSession(session: Session | null): void;
  /** The session's CSRF token when a request is sent (it changes with a password change). */
  csrfToken: () => string | undefined;
}

/**
 * Everything behind sign-in, in a chunk of its own (the GraphQL client, Usage and a base's page; the other pages in web/src/more-pages.ts): the sign-in
 * page loads without it. Each session gets a client of its own, so nothing read in one session shows in the next.
 */
export default function SignedInApp({ path, session, setSession, csrfToken }: Props) {
  const client = useMemo(() => createGraphqlClient(csrfToken), [session.user.id]);
  return (
    <GraphqlClientContext.Provider value={client}>
      <SessionContext.Provider value={{ session, setSession }}>
        <Page path={path} />
      </SessionContext.Provider>
    </GraphqlClientContext.Provider>
  );
}

/** The path's page, once its chunk is in. */
function Page({ path }: { path: string }) {
  const route = signedInRoute(path);
  const page = route.render();
  const [, setLoaded] = useState(0);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!page) route.load().then(() => setLoaded((n) => n + 1), setError);
  }, [route.load, page === null]);
  return page ?? (error ? <ErrorMessage error={error} /> : <p class="loading">Loading…</p>);
}
